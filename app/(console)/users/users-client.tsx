"use client";

import { useRouter } from "next/navigation";
import { useState, useTransition } from "react";
import { Badge } from "@/components/ui/badge";
import { CopyButton } from "@/components/ui/copy-button";
import { ReasonedAction } from "@/components/ui/reasoned-action";
import { RelativeTime } from "@/components/ui/relative-time";
import { changeUserRoleAction, createUserAction, disableUserAction, resetUserPasswordAction } from "@/lib/actions/users";
import type { ActionFailure, ActionResult } from "@/lib/console/action-result";
import { formatCount } from "@/lib/views/format";

type User = { id: string; email: string; name: string; role: string; disabled: boolean; createdAt: string; liveTokens: number };
const ROLES = ["viewer", "operator", "admin"] as const;
const plural = (n: number, noun: string) => `${formatCount(n)} ${noun}${n === 1 ? "" : "s"}`;

function Failure({ failure }: { failure: ActionFailure | null }) {
  if (!failure) return null;
  return (
    <p role="alert" className="form-error">
      {failure.message} {failure.code === "reauth_required" ? <a href="/sign-in?reauth=1&next=/users">Sign in again</a> : null}
    </p>
  );
}

/** A password made by weir, shown once with a copy button. */
function OneTimePassword({ email, password }: { email: string; password: string }) {
  return (
    <div role="status" className="panel">
      <strong>Password for {email}; copy it now, it will not be shown again.</strong>
      <pre data-testid="new-password" style={{ userSelect: "all", overflowWrap: "anywhere", whiteSpace: "pre-wrap" }}>
        {password}
      </pre>
      <CopyButton value={password} label="password" />
    </div>
  );
}

function CreateUserForm({ onDone }: { onDone(email: string, password: string | undefined): void }) {
  const [failure, setFailure] = useState<ActionFailure | null>(null);
  const [pending, startTransition] = useTransition();
  const submit = (form: FormData) =>
    startTransition(async () => {
      const name = String(form.get("name") ?? "").trim();
      const result = await createUserAction({ email: String(form.get("email") ?? ""), name: name || undefined, role: String(form.get("role")) as "viewer" });
      setFailure(result.ok ? null : result);
      if (result.ok) onDone(result.data.email, result.data.password);
    });
  return (
    <form action={submit} aria-label="Create user" className="panel" style={{ display: "grid", gap: "0.6rem", maxWidth: 560 }}>
      <h2>New user</h2>
      <label className="field">
        <span>Email</span>
        <input name="email" type="email" required maxLength={320} autoComplete="off" aria-invalid={failure?.fieldErrors?.email ? true : undefined} />
        {failure?.fieldErrors?.email ? <span className="form-error">{failure.fieldErrors.email[0]}</span> : null}
      </label>
      <label className="field">
        <span>Name (optional)</span>
        <input name="name" maxLength={200} autoComplete="off" />
      </label>
      <label className="field">
        <span>Role</span>
        <select name="role" defaultValue="viewer">
          {ROLES.map((role) => (
            <option key={role}>{role}</option>
          ))}
        </select>
      </label>
      <p className="small muted">weir generates the password and shows it once; give it to the user over a channel you trust.</p>
      <div>
        <button type="submit" disabled={pending}>
          {pending ? "Creating…" : "Create user"}
        </button>
      </div>
      <Failure failure={failure} />
    </form>
  );
}

type Kind = "role" | "disable" | "password";
const VERBS: Record<Kind, { label: string; pending: string; tone: "primary" | "danger"; warning: string }> = {
  role: { label: "Change role", pending: "Changing…", tone: "primary", warning: "Their sessions end; the new role applies when they sign in again." },
  disable: { label: "Disable", pending: "Disabling…", tone: "danger", warning: "Their sessions end and they cannot sign in until an admin resets their password." },
  password: { label: "Reset password", pending: "Resetting…", tone: "danger", warning: "weir generates a new password, shown once; their sessions end. A disabled user is enabled again." },
};

/** One user's change (role, disable, password reset): a panel naming them, a reason for the audit log, then the button. */
function UserChange({ user, kind, onDone }: { user: User; kind: Kind; onDone(message: string, password?: string): void }) {
  const [reason, setReason] = useState("");
  const [role, setRole] = useState(user.role);
  const [revokeTokens, setRevokeTokens] = useState(false);
  const [failure, setFailure] = useState<ActionFailure | null>(null);
  const [pending, startTransition] = useTransition();
  const verb = VERBS[kind];
  const confirm = () =>
    startTransition(async () => {
      let result: ActionResult<{ email: string; password?: string }>;
      if (kind === "role") result = await changeUserRoleAction(user.id, { role, reason });
      else if (kind === "disable") result = await disableUserAction(user.id, { reason, revokeTokens });
      else result = await resetUserPasswordAction(user.id, { reason });
      setFailure(result.ok ? null : result);
      if (!result.ok) return;
      const tokens = kind === "disable" && revokeTokens && user.liveTokens > 0 ? ` ${plural(user.liveTokens, "API token")} they created ${user.liveTokens === 1 ? "is" : "are"} revoked.` : "";
      const done = { role: `${user.email} is now ${role}.`, disable: `${user.email} is disabled; their sessions have ended.${tokens}`, password: `${user.email} has a new password; their sessions have ended.` };
      onDone(done[kind], result.data.password);
    });
  return (
    <div role="group" aria-label={`${verb.label} for ${user.email}`} data-testid={`user-${kind}-panel`}>
      <p className="small">{verb.warning}</p>
      <ReasonedAction
        reason={reason}
        onReason={setReason}
        reasonErrors={failure?.fieldErrors?.reason}
        tone={verb.tone}
        pending={pending}
        blocked={kind === "role" && role === user.role}
        label={`${verb.label} of ${user.email}`}
        pendingLabel={verb.pending}
        onConfirm={confirm}
      >
        {kind === "role" ? (
          <label className="field">
            <span>New role</span>
            <select value={role} onChange={(e) => setRole(e.target.value)}>
              {ROLES.map((r) => (
                <option key={r}>{r}</option>
              ))}
            </select>
          </label>
        ) : null}
        {kind === "disable" && user.liveTokens > 0 ? (
          <fieldset className="field" data-testid="user-tokens">
            <legend>Their API tokens</legend>
            <p className="small">
              {user.email} created {plural(user.liveTokens, "live API token")}. Disabling them does not stop {user.liveTokens === 1 ? "it" : "them"}: services may depend on{" "}
              {user.liveTokens === 1 ? "it" : "them"}. See <a href="/tokens">API tokens</a>.
            </p>
            <label>
              <input type="checkbox" checked={revokeTokens} onChange={(e) => setRevokeTokens(e.target.checked)} /> Revoke {user.liveTokens === 1 ? "it" : `all ${user.liveTokens}`} too
            </label>
          </fieldset>
        ) : null}
      </ReasonedAction>
      <Failure failure={failure} />
    </div>
  );
}

function UserRow({ user, self, onDone }: { user: User; self: string; onDone(message: string, password?: string): void }) {
  const [open, setOpen] = useState<Kind | null>(null);
  const isSelf = user.email === self;
  return (
    <tr data-testid="user-row" data-email={user.email}>
      <td>
        {user.email}
        {isSelf ? " (you)" : null}
        <br />
        <span className="small muted">{user.name}</span>
      </td>
      <td>{user.role}</td>
      <td>{user.disabled ? <Badge tone="failed">disabled</Badge> : <Badge tone="done">active</Badge>}</td>
      <td>
        <RelativeTime value={user.createdAt} />
      </td>
      <td>
        {isSelf ? (
          <a href="/account">Change your password</a>
        ) : open ? (
          <>
            <UserChange user={user} kind={open} onDone={(message, password) => (setOpen(null), onDone(message, password))} />
            <button type="button" onClick={() => setOpen(null)}>
              Cancel
            </button>
          </>
        ) : (
          <div className="filters">
            {(Object.keys(VERBS) as Kind[])
              .filter((kind) => kind !== "disable" || !user.disabled)
              .map((kind) => (
                <button key={kind} type="button" onClick={() => setOpen(kind)} aria-label={`${VERBS[kind].label} of ${user.email}…`}>
                  {VERBS[kind].label}…
                </button>
              ))}
          </div>
        )}
      </td>
    </tr>
  );
}

export function UsersClient({ users, self }: { users: User[]; self: string }) {
  const router = useRouter();
  const [notice, setNotice] = useState<string | null>(null);
  const [secret, setSecret] = useState<{ email: string; password: string } | null>(null);
  const done = (message: string, email?: string, password?: string) => {
    setNotice(message);
    setSecret(password && email ? { email, password } : null);
    router.refresh();
  };
  return (
    <>
      <CreateUserForm onDone={(email, password) => done(`${email} can now sign in.`, email, password)} />
      {secret ? <OneTimePassword {...secret} /> : null}
      {notice ? (
        <p role="status" className="panel" data-testid="user-notice">
          {notice}
        </p>
      ) : null}
      <div className="table-wrap">
        <table>
          <thead>
            <tr>
              <th>User</th>
              <th>Role</th>
              <th>Status</th>
              <th>Created</th>
              <th>Change</th>
            </tr>
          </thead>
          <tbody>
            {users.map((user) => (
              <UserRow key={user.id} user={user} self={self} onDone={(message, password) => done(message, user.email, password)} />
            ))}
          </tbody>
        </table>
      </div>
    </>
  );
}
