import { Instant } from "@/components/ui/time-zone";
import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { EmptyState } from "@/components/ui/empty-state";
import { PageHeader } from "@/components/ui/page-header";
import { StoreUnavailableNotice } from "@/components/ui/store-unavailable";
import { requireConsoleActor } from "@/lib/auth/console-actor";
import { can } from "@/lib/auth/authorize";
import { formatCount, formatDuration, formatPercent } from "@/lib/views/format";
import { loadGroup } from "@/lib/views/groups";
import { formatCappedCount } from "@/lib/views/capped-count";
import { loadGroupRecordCount } from "@/lib/views/counts";
import { withStore } from "@/lib/console/store";
import { consumerGroupIdSchema } from "@/lib/validation/window";
import { param, type SearchParams } from "@/lib/validation/console-common";
import { JournalLevelForm } from "@/components/journal/journal-level-form";
import { KeyTimeline } from "@/components/journal/key-timeline";
import { hrefWith } from "@/components/ui/pager";
import { loadJournalLevel } from "@/lib/views/journal-level";
import { loadKeyTimeline } from "@/lib/views/journal-timeline";
import { timelineBeforeSchema } from "@/lib/validation/console-journal";
import { journalKeyOf } from "@/lib/validation/journal";
import { ClaimLookup } from "./claim-lookup";
import { TtlEditor } from "./ttl-editor";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Consumer group" };

export default async function GroupPage({ params, searchParams }: { params: Promise<{ groupId: string }>; searchParams: Promise<SearchParams> }) {
  const actor = await requireConsoleActor("read");
  const id = consumerGroupIdSchema.safeParse((await params).groupId);
  if (!id.success) notFound();
  const query = await searchParams;
  const rawClaim = param(query.claim);
  const claimQuery = typeof rawClaim === "string" ? rawClaim.slice(0, 512) : "";
  const before = timelineBeforeSchema.safeParse(query.before).data;
  const claimKey = journalKeyOf.safeParse(claimQuery);
  const loaded = await withStore((db) => loadGroup(db, id.data, { claimId: claimQuery || undefined }));
  if (!loaded.ok) return <StoreUnavailableNotice />;
  if (!loaded.data) notFound();
  const { group, history, claim } = loaded.data;
  const [records, journal] = await Promise.all([
    withStore((db) => loadGroupRecordCount(db, group.id)),
    withStore((db) =>
      Promise.all([
        loadJournalLevel(db, "group", group.id),
        claimKey.success ? loadKeyTimeline(db, { mode: "window", subject: group.id, key: claimKey.data, before }) : Promise.resolve(null),
      ]),
    ),
  ]);
  const [level, timeline] = journal.ok ? journal.data : [null, null];
  const claimHref = (extra: { before?: number }) => `${hrefWith(`/groups/${group.id}`, { claim: claimQuery, ...extra })}#key-decisions`;
  const stats = [
    ["TTL", `${formatDuration(group.ttlSeconds)}${group.configured ? "" : " (default)"}${group.slide ? ", sliding" : ""}`],
    ["Grace for late redeliveries", formatDuration(group.graceSeconds)],
    ["Stored records", records.ok ? formatCappedCount(records.data) : "–"],
    ["Claims (24 h)", formatCount(group.checks)],
    ["Duplicate rate (24 h)", formatPercent(group.duplicates, group.checks)],
    ["Late redeliveries (24 h)", formatCount(group.lateRedeliveries)],
    ["Cleanup lag", group.cleanupLagSeconds > 0 ? formatDuration(group.cleanupLagSeconds) : "none"],
  ];
  return (
    <>
      <PageHeader
        title={group.id}
        description={
          <>
            Consumer group · <Link href={`/?kind=group&subject=${group.id}`}>chart</Link> ·{" "}
            <Link href={hrefWith("/sources", { kind: "group", subject: group.id })}>sources of duplicates</Link>
          </>
        }
        actions={can(actor, "operate") ? <Link className="button" href={`/reset?kind=window&subject=${group.id}&mode=filter`}>Reset records…</Link> : null}
      />
      <div className="stats" data-testid="group-stats">
        {stats.map(([label, value]) => (
          <div className="stat" key={label}>
            <div className="label">{label}</div>
            <div className="value">{value}</div>
          </div>
        ))}
      </div>
      <ClaimLookup groupId={group.id} query={claimQuery} claim={claim} />
      {timeline ? <KeyTimeline timeline={timeline} olderHref={(older) => claimHref({ before: older })} newestHref={before === undefined ? null : claimHref({})} /> : null}
      {can(actor, "operate") ? <TtlEditor consumerGroup={group.id} currentTtlSeconds={group.ttlSeconds} currentSlide={group.slide} /> : null}
      {level ? <JournalLevelForm kind="group" subject={group.id} level={level.level} enabled={level.enabled} editable={can(actor, "operate", { kind: "consumerGroups", id: group.id })} /> : null}
      <section className="panel">
        <h2>TTL history</h2>
        {history.length === 0 ? (
          <EmptyState title="The TTL of this group was never changed." />
        ) : (
          <div className="table-wrap">
            <table data-testid="ttl-history">
              <thead>
                <tr>
                  <th>When</th>
                  <th>Change</th>
                  <th className="num">Expired at once</th>
                  <th className="num">Back inside the window</th>
                  <th>By</th>
                  <th>Reason</th>
                </tr>
              </thead>
              <tbody>
                {history.map((c) => (
                  <tr key={c.id}>
                    <td><Instant value={c.at} /></td>
                    <td>
                      {c.created ? "created: " : ""}
                      {formatDuration(c.oldTtlSeconds)} → {formatDuration(c.newTtlSeconds)}
                    </td>
                    <td className="num">{formatCount(c.expiredAtOnce)}</td>
                    <td className="num">{formatCount(c.revived)}</td>
                    <td className="small">{c.actor}</td>
                    <td className="small break">{c.reason}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </section>
    </>
  );
}
