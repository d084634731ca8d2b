import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import type { ReactNode } from "react";
import { Badge } from "@/components/ui/badge";
import { CopyButton } from "@/components/ui/copy-button";
import { ShortHash } from "@/components/ui/short-hash";
import { JsonPayload } from "@/components/ui/json-payload";
import { RelativeTime } from "@/components/ui/relative-time";
import { VisibleText } from "@/components/ui/visible-text";
import { hrefWith } from "@/components/ui/pager";
import { PageHeader } from "@/components/ui/page-header";
import { StoreUnavailableNotice } from "@/components/ui/store-unavailable";
import { requireConsoleActor } from "@/lib/auth/console-actor";
import { can } from "@/lib/auth/authorize";
import { KeyTimeline } from "@/components/journal/key-timeline";
import { loadIdempotencyKey } from "@/lib/views/idempotency";
import { loadKeyTimeline } from "@/lib/views/journal-timeline";
import { timelineBeforeSchema } from "@/lib/validation/console-journal";
import { withStore } from "@/lib/console/store";
import { param, type SearchParams } from "@/lib/validation/console-common";
import { idempotencyKeySchema, scopeIdSchema } from "@/lib/validation/idempotency";
import { ReleaseKey } from "./release-key";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Idempotency key" };

export default async function IdempotencyKeyPage({ searchParams }: { searchParams: Promise<SearchParams> }) {
  const actor = await requireConsoleActor("read");
  const query = await searchParams;
  const scope = scopeIdSchema.safeParse(param(query.scope));
  const key = idempotencyKeySchema.safeParse(param(query.key));
  if (!scope.success || !key.success) notFound();
  const before = timelineBeforeSchema.safeParse(query.before).data;
  const loaded = await withStore((db) =>
    Promise.all([loadIdempotencyKey(db, scope.data, key.data), loadKeyTimeline(db, { mode: "idempotency", subject: scope.data, key: key.data, before })]),
  );
  if (!loaded.ok) return <StoreUnavailableNotice />;
  const [k, timeline] = loaded.data;
  const keyHref = (extra: { before?: number }) => `${hrefWith("/idempotency/key", { scope: scope.data, key: key.data, ...extra })}#key-decisions`;
  const decisions = <KeyTimeline timeline={timeline} olderHref={(older) => keyHref({ before: older })} newestHref={before === undefined ? null : keyHref({})} />;
  const title = (
    <span className="break">
      <VisibleText text={key.data} /> <CopyButton value={key.data} label="key" />
    </span>
  );
  if (!k) {
    // Expired or released and gone, but the journal remembers what was answered.
    if (timeline.entries.length === 0 && before === undefined) notFound();
    return (
      <>
        <PageHeader
          title={title}
          description={
            <>
              Scope <Link href={hrefWith("/idempotency", { scope: scope.data })}>{scope.data}</Link>: the key is not stored now (expired, or never stored); its
              answers are below.
            </>
          }
        />
        {decisions}
      </>
    );
  }
  const rows: [string, ReactNode][] = [
    ["Attempt", String(k.attempt)],
    ["Ref of this attempt", k.ref === null ? <span key="r" className="muted">none given</span> : <code key="r" data-testid="key-ref"><VisibleText text={k.ref} /></code>],
    [
      "Request hash",
      <ShortHash key="h" value={k.requestHash} label="request hash" />,
    ],
    ["Created", <RelativeTime key="c" value={k.createdAt} />],
    ["Locked until", <RelativeTime key="l" value={k.lockedUntil} />],
    ["Completed", <RelativeTime key="d" value={k.completedAt} />],
    ["Expires", <RelativeTime key="e" value={k.expiresAt} />],
    ["Response status", k.responseStatus === null ? "–" : String(k.responseStatus)],
  ];
  return (
    <>
      <PageHeader
        title={title}
        description={
          <>
            Scope <Link href={hrefWith("/idempotency", { scope: k.scope })}>{k.scope}</Link> · <Badge tone={k.state} />
          </>
        }
      />
      <section className="panel">
        <table className="small" data-testid="idempotency-key">
          <tbody>
            {rows.map(([label, value]) => (
              <tr key={label}>
                <th>{label}</th>
                <td className="break mono">{value}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </section>
      {k.state === "in_progress" || k.state === "stuck" ? (
        can(actor, "operate") ? (
          <ReleaseKey scope={k.scope} idempotencyKey={k.key} attempt={k.attempt} stuck={k.state === "stuck"} />
        ) : null
      ) : null}
      {decisions}
      <section className="panel">
        <h2>Stored response</h2>
        {k.responseBody === null ? (
          <p className="muted small">No response yet: the key is not completed.</p>
        ) : (
          <>
            {k.responseHeaders ? <JsonPayload text={k.responseHeaders} label="response headers" /> : null}
            <JsonPayload text={k.responseBody} label="response body" testId="response-body" />
          </>
        )}
      </section>
    </>
  );
}
