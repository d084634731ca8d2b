import type { Metadata } from "next";
import Link from "next/link";
import { RateChange } from "@/components/ui/rate-change";
import { EmptyState } from "@/components/ui/empty-state";
import { PageHeader } from "@/components/ui/page-header";
import { StoreUnavailableNotice } from "@/components/ui/store-unavailable";
import { requireConsoleActor } from "@/lib/auth/console-actor";
import { can } from "@/lib/auth/authorize";
import { formatCount, formatDuration, formatPercent } from "@/lib/views/format";
import { loadGroups } from "@/lib/views/groups";
import { withStore } from "@/lib/console/store";
import { NewGroupForm } from "./new-group-form";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Consumer groups" };

export default async function GroupsPage() {
  const actor = await requireConsoleActor("read");
  const loaded = await withStore((db) => loadGroups(db));
  if (!loaded.ok) return <StoreUnavailableNotice />;
  const { groups, defaultTtlSeconds } = loaded.data;
  return (
    <>
      <PageHeader
        title="Consumer groups"
        description={`Window dedup per group. Groups without settings use the default TTL of ${formatDuration(defaultTtlSeconds)}. Traffic over the last 24 h.`}
      />
      {can(actor, "operate") ? <NewGroupForm defaultTtlSeconds={defaultTtlSeconds} /> : null}
      {groups.length === 0 ? (
        <EmptyState title="No consumer groups yet.">A group appears with its first claim (POST /api/v1/claim), when its TTL is set, or when you create it here.</EmptyState>
      ) : (
        <div className="table-wrap">
          <table data-testid="groups">
            <thead>
              <tr>
                <th>Group</th>
                <th>TTL</th>
                <th className="num">Claims (24 h)</th>
                <th className="num">Duplicate rate</th>
                <th>vs previous 24 h</th>
                <th className="num">Late redeliveries</th>
                <th className="num">Cleanup lag</th>
              </tr>
            </thead>
            <tbody>
              {groups.map((g) => (
                <tr key={g.id}>
                  <td>
                    <Link href={`/groups/${g.id}`}>{g.id}</Link>
                  </td>
                  <td>
                    {formatDuration(g.ttlSeconds)} {g.configured ? null : <span className="muted small">(default)</span>}
                  </td>
                  <td className="num">{formatCount(g.checks)}</td>
                  <td className="num">{formatPercent(g.duplicates, g.checks)}</td>
                  <td>
                    <RateChange now={g} before={g.previous} />
                  </td>
                  <td className="num">{formatCount(g.lateRedeliveries)}</td>
                  <td className="num">{g.cleanupLagSeconds > 0 ? formatDuration(g.cleanupLagSeconds) : "none"}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </>
  );
}
