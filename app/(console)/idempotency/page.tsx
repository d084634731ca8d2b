import type { Metadata } from "next";
import Form from "next/form";
import Link from "next/link";
import { Field } from "@/components/ui/field";
import { InvalidFilters } from "@/components/ui/invalid-filters";
import { ListTotal } from "@/components/ui/list-total";
import { VisibleText } from "@/components/ui/visible-text";
import { EmptyState } from "@/components/ui/empty-state";
import { hrefWith, Pager } from "@/components/ui/pager";
import { PageHeader } from "@/components/ui/page-header";
import { StoreUnavailableNotice } from "@/components/ui/store-unavailable";
import { JournalLevelForm } from "@/components/journal/journal-level-form";
import { requireConsoleActor } from "@/lib/auth/console-actor";
import { can } from "@/lib/auth/authorize";
import { loadJournalLevel } from "@/lib/views/journal-level";
import { loadIdempotencyBrowse, loadReleaseNotice, RELEASE_ACTION, releaseTarget, type IdempotencyKeyView } from "@/lib/views/idempotency";
import { withStore } from "@/lib/console/store";
import { param, type SearchParams } from "@/lib/validation/console-common";
import { KEY_STATES } from "@/lib/validation/console-idempotency";
import { IdempotencyKeyRows, type IdempotencyKeyRow } from "./_components/key-rows";
import { ReleaseStuck } from "./_components/release-stuck";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Idempotency keys" };

const LABELS = { in_progress: "In progress", completed: "Completed", expired: "Expired" };

/** The audit log filtered to one release: its action and scope, within the millisecond it was written. */
const releaseAuditHref = (scope: string, at: string) =>
  hrefWith("/audit", { action: RELEASE_ACTION, target: releaseTarget(scope), from: at, to: new Date(Date.parse(at) + 1).toISOString() });

/** A refused paging cursor (after/before) is named as the page link it came from. */
const pageLinkErrors = (fieldErrors: Record<string, string[]>) => {
  const errors = [...(fieldErrors.after ?? []), ...(fieldErrors.before ?? [])];
  return errors.length > 0 ? errors : undefined;
};

/** The columns a row shows, and no more: the stored responses stay out of the page's payload. */
const keyRow = ({ scope, key, state, attempt, createdAt, lockedUntil, expiresAt }: IdempotencyKeyView): IdempotencyKeyRow => ({
  scope,
  key,
  state,
  attempt,
  createdAt,
  lockedUntil,
  expiresAt,
});

export default async function IdempotencyPage({ searchParams }: { searchParams: Promise<SearchParams> }) {
  const actor = await requireConsoleActor("read");
  const params = await searchParams;
  const loaded = await withStore((db) => loadIdempotencyBrowse(db, params));
  if (!loaded.ok) return <StoreUnavailableNotice />;
  const { scopes, scope, rawScope, known, status, keys, nextCursor, prevCursor, fieldErrors, total } = loaded.data;
  const release = param(params.release);
  const noticed = typeof release === "string" && scope && known ? await withStore((db) => loadReleaseNotice(db, { auditId: release, scope, actorId: actor.id })) : null;
  const released = noticed?.ok ? noticed.data : null;
  const journal = scope && known ? await withStore((db) => loadJournalLevel(db, "scope", scope)) : null;
  const scopeErrors = fieldErrors.scope ?? (scope !== null && !known ? [`There is no idempotency scope named “${scope}”.`] : undefined);
  const invalid = Boolean(scopeErrors) || Object.keys(fieldErrors).length > 0;
  return (
    <>
      <PageHeader title="Idempotency keys" description="Request dedup per scope. An in-progress key whose lock has run out is stuck: its caller died." />
      {released && scope ? (
        <div className="panel callout" role="status" data-testid="released">
          Released attempt {released.attempt} of key <code><VisibleText text={released.key} /></code> in scope <code>{scope}</code>: the next request with
          this key starts the work again. The release is in the <Link href={releaseAuditHref(scope, released.at)}>audit log</Link>.
        </div>
      ) : null}
      {scopes.length === 0 && !rawScope ? (
        <EmptyState title="No idempotency scopes yet.">Keys appear with the first POST /api/v1/idempotency/:scope/begin.</EmptyState>
      ) : (
        <>
          <Form action="/idempotency" className="panel filters" aria-label="Choose a scope">
            <Field label="Scope" errors={scopeErrors}>
              {scopeErrors ? (
                <input name="scope" defaultValue={rawScope ?? ""} list="scope-ids" />
              ) : (
                <select name="scope" defaultValue={scope ?? undefined}>
                  {scopes.map((s) => (
                    <option key={s}>{s}</option>
                  ))}
                </select>
              )}
            </Field>
            <datalist id="scope-ids">
              {scopes.map((s) => (
                <option key={s} value={s} />
              ))}
            </datalist>
            <input type="hidden" name="status" value={status} />
            <button type="submit">Show</button>
          </Form>
          {scope && known ? (
            <Form action="/idempotency/key" className="panel filters" aria-label="Find a key">
              <input type="hidden" name="scope" value={scope} />
              <Field label={`Exact key in ${scope}`}>
                <input name="key" required maxLength={512} size={40} />
              </Field>
              <button type="submit">Open key</button>
            </Form>
          ) : null}
          <nav className="tabs" aria-label="Status" style={{ marginBottom: "0.75rem" }}>
            {KEY_STATES.map((s) => (
              <Link key={s} href={hrefWith("/idempotency", { scope, status: s })} aria-current={s === status && !fieldErrors.status ? "page" : undefined}>
                {LABELS[s]}
              </Link>
            ))}
          </nav>
          {invalid ? (
            <InvalidFilters what="keys" fields={{ status: fieldErrors.status, "page link": pageLinkErrors(fieldErrors) }} />
          ) : keys.length === 0 ? (
            <EmptyState title={`No ${LABELS[status].toLowerCase()} keys in scope ${scope}.`} />
          ) : (
            <div className="table-wrap">
              {total ? <ListTotal total={total} noun={`${LABELS[status].toLowerCase()} key`} testId="idempotency-total" /> : null}
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
                <IdempotencyKeyRows rows={keys.map(keyRow)} />
              </table>
            </div>
          )}
          <Pager
            isFirst={invalid || (!params.after && !params.before)}
            firstHref={hrefWith("/idempotency", { scope, status })}
            prevHref={prevCursor ? hrefWith("/idempotency", { scope, status, before: prevCursor }) : null}
            nextHref={nextCursor ? hrefWith("/idempotency", { scope, status, after: nextCursor }) : null}
          />
          {scope && known && can(actor, "operate", { kind: "idempotencyScopes", id: scope }) ? <ReleaseStuck scope={scope} /> : null}
          {journal?.ok && scope ? (
            <JournalLevelForm kind="scope" subject={scope} level={journal.data.level} enabled={journal.data.enabled} editable={can(actor, "operate", { kind: "idempotencyScopes", id: scope })} />
          ) : null}
        </>
      )}
    </>
  );
}
