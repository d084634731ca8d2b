import type { Metadata } from "next";
import Form from "next/form";
import Link from "next/link";
import { Badge } from "@/components/ui/badge";
import { EmptyState } from "@/components/ui/empty-state";
import { hrefWith, Pager } from "@/components/ui/pager";
import { PageHeader } from "@/components/ui/page-header";
import { StoreUnavailableNotice } from "@/components/ui/store-unavailable";
import { requireConsoleActor } from "@/lib/auth/console-actor";
import { formatInstant } from "@/lib/console/format";
import { loadIdempotencyBrowse } from "@/lib/console/idempotency";
import { withStore } from "@/lib/console/store";
import type { SearchParams } from "@/lib/validation/console-common";
import { KEY_STATES } from "@/lib/validation/console-idempotency";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Idempotency keys" };

const LABELS = { in_progress: "In progress", completed: "Completed", expired: "Expired" };

export default async function IdempotencyPage({ searchParams }: { searchParams: Promise<SearchParams> }) {
  await requireConsoleActor("viewer");
  const params = await searchParams;
  const loaded = await withStore((db) => loadIdempotencyBrowse(db, params));
  if (!loaded.ok) return <StoreUnavailableNotice />;
  const { scopes, scope, status, keys, nextCursor, fieldErrors } = loaded.data;
  return (
    <>
      <PageHeader title="Idempotency keys" description="Request dedup per scope. An in-progress key whose lock has run out is stuck: its caller died." />
      {scopes.length === 0 ? (
        <EmptyState title="No idempotency scopes yet.">Keys appear with the first POST /api/v1/idempotency/:scope/begin.</EmptyState>
      ) : (
        <>
          <Form action="/idempotency" className="panel filters" aria-label="Scope">
            <label className="field">
              <span>Scope</span>
              <select name="scope" defaultValue={scope ?? undefined}>
                {scopes.map((s) => (
                  <option key={s}>{s}</option>
                ))}
              </select>
            </label>
            <input type="hidden" name="status" value={status} />
            <button type="submit">Show</button>
            {fieldErrors.scope ? <span className="form-error">{fieldErrors.scope.join(" ")}</span> : null}
          </Form>
          <nav className="tabs" aria-label="Status" style={{ marginBottom: "0.75rem" }}>
            {KEY_STATES.map((s) => (
              <Link key={s} href={hrefWith("/idempotency", { scope, status: s })} aria-current={s === status ? "page" : undefined}>
                {LABELS[s]}
              </Link>
            ))}
          </nav>
          {keys.length === 0 ? (
            <EmptyState title={`No ${LABELS[status].toLowerCase()} keys in ${scope}.`} />
          ) : (
            <div className="table-wrap">
              <table data-testid="idempotency-keys">
                <thead>
                  <tr>
                    <th>Key</th>
                    <th>State</th>
                    <th className="num">Attempt</th>
                    <th>Created</th>
                    <th>Locked until</th>
                    <th>Expires</th>
                  </tr>
                </thead>
                <tbody>
                  {keys.map((k) => (
                    <tr key={k.key}>
                      <td className="break">
                        <Link href={hrefWith("/idempotency/key", { scope: k.scope, key: k.key })}>{k.key}</Link>
                      </td>
                      <td>
                        <Badge tone={k.state} />
                      </td>
                      <td className="num">{k.attempt}</td>
                      <td className="small">{formatInstant(k.createdAt)}</td>
                      <td className="small">{formatInstant(k.lockedUntil)}</td>
                      <td className="small">{formatInstant(k.expiresAt)}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          )}
          <Pager
            isFirst={!params.after}
            firstHref={hrefWith("/idempotency", { scope, status })}
            nextHref={nextCursor ? hrefWith("/idempotency", { scope, status, after: nextCursor }) : null}
          />
        </>
      )}
    </>
  );
}
