"use client";

import { useRouter } from "next/navigation";
import { useState, useTransition } from "react";
import { createToken, revokeToken } from "@/lib/actions/tokens";
import type { ConsoleToken } from "@/lib/auth/tokens/list-tokens";
import type { TokenBody } from "@/lib/auth/tokens/token-actor";
import { Badge } from "@/components/ui/badge";
import { CopyButton } from "@/components/ui/copy-button";
import { ReasonedAction } from "@/components/ui/reasoned-action";
import { RelativeTime } from "@/components/ui/relative-time";
import type { ActionFailure } from "@/lib/console/action-result";

const splitIds = (text: string) => text.split(/[\s,]+/).map((s) => s.trim()).filter(Boolean);
/** An optional whole number from the form: left empty, the token takes the default. */
const optionalCount = (value: FormDataEntryValue | null) => (String(value ?? "").trim() === "" ? undefined : Number(value));
const EXPIRY_DAYS = [30, 90, 365] as const;

/** When a token stops working: never, a date to come, or expired (marked). */
function Expiry({ token }: { token: ConsoleToken }) {
  if (!token.expiresAt) return <>never</>;
  if (!token.expired) return <RelativeTime value={token.expiresAt} />;
  return (
    <>
      <Badge tone="expired" /> <RelativeTime value={token.expiresAt} />
    </>
  );
}

/** A token's own limits per node, or the defaults it falls under. */
function Limits({ token }: { token: TokenBody }) {
  return (
    <>
      in flight: {token.maxInFlight ?? "default share"}
      <br />
      per second: {token.requestsPerSecond ?? "unlimited"}
    </>
  );
}

function FieldError({ failure, field }: { failure: ActionFailure | null; field: string }) {
  const message = failure?.fieldErrors?.[field]?.[0];
  return message ? <span className="form-error">{message}</span> : null;
}

function Failure({ failure }: { failure: ActionFailure | null }) {
  if (!failure) return null;
  return (
    <p role="alert" className="form-error">
      {failure.message}{" "}
      {failure.code === "reauth_required" ? <a href="/sign-in?reauth=1&next=/tokens">Sign in again</a> : null}
    </p>
  );
}

function CreateTokenForm({ onCreated }: { onCreated: (token: string) => void }) {
  const [failure, setFailure] = useState<ActionFailure | null>(null);
  const [pending, startTransition] = useTransition();
  const submit = (form: FormData) =>
    startTransition(async () => {
      const result = await createToken({
        name: String(form.get("name") ?? ""),
        role: String(form.get("role") ?? "service") as "service",
        services: splitIds(String(form.get("services") ?? "")),
        consumerGroups: splitIds(String(form.get("consumerGroups") ?? "")),
        idempotencyScopes: splitIds(String(form.get("idempotencyScopes") ?? "")),
        maxInFlight: optionalCount(form.get("maxInFlight")),
        requestsPerSecond: optionalCount(form.get("requestsPerSecond")),
        expiresInDays: optionalCount(form.get("expiresInDays")),
        reason: String(form.get("reason") ?? "") || undefined,
      });
      setFailure(result.ok ? null : result);
      if (result.ok) onCreated(result.data.token);
    });
  return (
    <form action={submit} aria-label="Create token" className="panel" style={{ display: "grid", gap: "0.6rem", maxWidth: 560 }}>
      <h2>New token</h2>
      <label className="field">
        <span>Name</span>
        <input name="name" required maxLength={100} />
      </label>
      <label className="field">
        <span>Role</span>
        <select name="role" defaultValue="service">
          <option value="service">service (check, claim, idempotency)</option>
          <option value="viewer">viewer (read)</option>
          <option value="operator">operator (TTL, cleanup, release)</option>
          <option value="admin">admin</option>
        </select>
      </label>
      <label className="field">
        <span>Services</span>
        <input name="services" placeholder="orders-projection, billing or *" />
      </label>
      <label className="field">
        <span>Consumer groups</span>
        <input name="consumerGroups" placeholder="ids, or *" />
      </label>
      <label className="field">
        <span>Idempotency scopes</span>
        <input name="idempotencyScopes" placeholder="ids, or *" />
      </label>
      <label className="field">
        <span>Max in flight per node</span>
        <input name="maxInFlight" type="number" min={1} max={100000} step={1} inputMode="numeric" placeholder="default: a quarter of the node's limit" />
        <FieldError failure={failure} field="maxInFlight" />
      </label>
      <label className="field">
        <span>Requests per second per node</span>
        <input name="requestsPerSecond" type="number" min={1} max={1000000} step={1} inputMode="numeric" placeholder="default: unlimited" />
        <FieldError failure={failure} field="requestsPerSecond" />
      </label>
      <label className="field">
        <span>Expires</span>
        <select name="expiresInDays" defaultValue="">
          <option value="">never</option>
          {EXPIRY_DAYS.map((days) => (
            <option key={days} value={days}>
              in {days} days
            </option>
          ))}
        </select>
        <FieldError failure={failure} field="expiresInDays" />
      </label>
      <label className="field">
        <span>Reason</span>
        <input name="reason" maxLength={500} />
      </label>
      <div>
        <button type="submit" disabled={pending}>
          {pending ? "Creating…" : "Create token"}
        </button>
      </div>
      <Failure failure={failure} />
    </form>
  );
}

/** Revoking asks for a reason (the audit log keeps it) and a second click, in a panel naming the token. */
function RevokeToken({ token, onDone }: { token: TokenBody; onDone(message: string | null, failure: ActionFailure | null): void }) {
  const [open, setOpen] = useState(false);
  const [reason, setReason] = useState("");
  const [failure, setFailure] = useState<ActionFailure | null>(null);
  const [pending, startTransition] = useTransition();
  if (!open) {
    return (
      <button type="button" onClick={() => setOpen(true)} aria-label={`Revoke ${token.name}…`}>
        Revoke…
      </button>
    );
  }
  const confirm = () =>
    startTransition(async () => {
      const result = await revokeToken({ id: token.id, reason });
      setFailure(result.ok ? null : result);
      if (result.ok) {
        setOpen(false);
        onDone(`Token “${token.name}” (${token.prefix}…) is revoked; services using it are refused within 10 seconds.`, null);
      }
    });
  return (
    <div role="group" aria-label={`Revoke ${token.name}`} data-testid="revoke-panel">
      <p className="small">Services still sending this token start getting 401 answers.</p>
      <ReasonedAction
        reason={reason}
        onReason={setReason}
        reasonErrors={failure?.fieldErrors?.reason}
        tone="danger"
        pending={pending}
        label={`Revoke ${token.name}`}
        pendingLabel="Revoking…"
        onConfirm={confirm}
      />
      <button type="button" onClick={() => setOpen(false)}>
        Cancel
      </button>
      <Failure failure={failure} />
    </div>
  );
}

export function TokensClient({ tokens, canManage }: { tokens: ConsoleToken[]; canManage: boolean }) {
  const router = useRouter();
  const [created, setCreated] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const [failure, setFailure] = useState<ActionFailure | null>(null);
  return (
    <>
      {canManage ? (
        <CreateTokenForm
          onCreated={(token) => {
            setCreated(token);
            router.refresh();
          }}
        />
      ) : (
        <p className="panel muted">Only admins can create or revoke tokens.</p>
      )}
      {created ? (
        <div role="status" className="panel">
          <strong>Copy this token now; it will not be shown again.</strong>
          <pre data-testid="new-token" style={{ userSelect: "all", overflowWrap: "anywhere", whiteSpace: "pre-wrap" }}>{created}</pre>
          <CopyButton value={created} label="token secret" />
        </div>
      ) : null}
      {notice ? (
        <p role="status" className="panel" data-testid="token-notice">
          {notice}
        </p>
      ) : null}
      <Failure failure={failure} />
      {tokens.length === 0 ? (
        <p>No tokens yet.</p>
      ) : (
        <div className="table-wrap">
        <table>
          <thead>
            <tr>
              <th>Name</th>
              <th>Role</th>
              <th>Scopes</th>
              <th>Limits</th>
              <th>Created</th>
              <th>Last used</th>
              <th>Expires</th>
              <th>Status</th>
            </tr>
          </thead>
          <tbody>
            {tokens.map((t) => (
              <tr key={t.id} data-token-id={t.id}>
                <td>
                  {t.name} <code>{t.prefix}…</code>
                </td>
                <td>{t.role}</td>
                <td className="mono">
                  services: {t.services.join(", ") || "none"}
                  <br />
                  groups: {t.consumerGroups.join(", ") || "none"}
                  <br />
                  idempotency: {t.idempotencyScopes.join(", ") || "none"}
                </td>
                <td className="mono">
                  <Limits token={t} />
                </td>
                <td>
                  <RelativeTime value={t.createdAt} /> by {t.createdBy}
                </td>
                <td>{t.lastUsedAt ? <RelativeTime value={t.lastUsedAt} /> : "never"}</td>
                <td data-testid="token-expiry">
                  <Expiry token={t} />
                </td>
                <td>
                  {t.revokedAt ? (
                    <>
                      revoked <RelativeTime value={t.revokedAt} />
                    </>
                  ) : canManage ? (
                    <RevokeToken
                      token={t}
                      onDone={(message, fail) => {
                        setNotice(message);
                        setFailure(fail);
                        router.refresh();
                      }}
                    />
                  ) : (
                    "active"
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
        </div>
      )}
    </>
  );
}
