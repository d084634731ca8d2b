import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { EmptyState } from "@/components/ui/empty-state";
import { PageHeader } from "@/components/ui/page-header";
import { StoreUnavailableNotice } from "@/components/ui/store-unavailable";
import { requireConsoleActor } from "@/lib/auth/console-actor";
import { canOperate } from "@/lib/console/authorise";
import { formatCount, formatDuration, formatInstant, formatPercent } from "@/lib/console/format";
import { loadGroup } from "@/lib/console/groups";
import { withStore } from "@/lib/console/store";
import { consumerGroupIdSchema } from "@/lib/validation/window";
import { TtlEditor } from "./ttl-editor";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Consumer group" };

export default async function GroupPage({ params }: { params: Promise<{ groupId: string }> }) {
  const actor = await requireConsoleActor("viewer");
  const id = consumerGroupIdSchema.safeParse((await params).groupId);
  if (!id.success) notFound();
  const loaded = await withStore((db) => loadGroup(db, id.data));
  if (!loaded.ok) return <StoreUnavailableNotice />;
  const { group, history } = loaded.data;
  const stats = [
    ["TTL", `${formatDuration(group.ttlSeconds)}${group.configured ? "" : " (default)"}`],
    ["Grace for late redeliveries", formatDuration(group.graceSeconds)],
    ["Claims (24 h)", formatCount(group.checks)],
    ["Duplicate rate (24 h)", formatPercent(group.duplicates, group.checks)],
    ["Late redeliveries (24 h)", formatCount(group.lateRedeliveries)],
    ["Cleanup lag", group.cleanupLagSeconds > 0 ? formatDuration(group.cleanupLagSeconds) : "none"],
  ];
  return (
    <>
      <PageHeader
        title={group.id}
        description={<>Consumer group · <Link href={`/?kind=group&subject=${group.id}`}>chart</Link></>}
        actions={canOperate(actor) ? <Link className="button" href={`/reset?kind=window&subject=${group.id}&mode=filter`}>Reset records…</Link> : null}
      />
      <div className="stats" data-testid="group-stats">
        {stats.map(([label, value]) => (
          <div className="stat" key={label}>
            <div className="label">{label}</div>
            <div className="value">{value}</div>
          </div>
        ))}
      </div>
      {canOperate(actor) ? <TtlEditor consumerGroup={group.id} currentTtlSeconds={group.ttlSeconds} /> : null}
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
                    <td>{formatInstant(c.at)}</td>
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
