"use client";

import { useRouter } from "next/navigation";
import { useState, useTransition } from "react";
import { createToken, revokeToken } from "@/lib/actions/tokens";
import type { TokenBody } from "@/lib/auth/tokens/token-actor";
import type { ActionFailure } from "@/lib/console/action-result";

const splitIds = (text: string) => text.split(/[\s,]+/).map((s) => s.trim()).filter(Boolean);

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

export function TokensClient({ tokens, canManage }: { tokens: TokenBody[]; canManage: boolean }) {
  const router = useRouter();
  const [created, setCreated] = useState<string | null>(null);
  const [failure, setFailure] = useState<ActionFailure | null>(null);
  const [pending, startTransition] = useTransition();
  const revoke = (id: string) =>
    startTransition(async () => {
      const result = await revokeToken({ id });
      setFailure(result.ok ? null : result);
      router.refresh();
    });
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
        </div>
      ) : null}
      <Failure failure={failure} />
      {tokens.length === 0 ? (
        <p>No tokens yet.</p>
      ) : (
        <table>
          <thead>
            <tr>
              <th>Name</th>
              <th>Role</th>
              <th>Scopes</th>
              <th>Created</th>
              <th>Last used</th>
              <th>Status</th>
            </tr>
          </thead>
          <tbody>
            {tokens.map((t) => (
              <tr key={t.id}>
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
                <td>
                  {new Date(t.createdAt).toLocaleString()} by {t.createdBy}
                </td>
                <td>{t.lastUsedAt ? new Date(t.lastUsedAt).toLocaleString() : "never"}</td>
                <td>
                  {t.revokedAt ? (
                    `revoked ${new Date(t.revokedAt).toLocaleString()}`
                  ) : canManage ? (
                    <button type="button" disabled={pending} onClick={() => revoke(t.id)} aria-label={`Revoke ${t.name}`}>
                      Revoke
                    </button>
                  ) : (
                    "active"
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </>
  );
}
