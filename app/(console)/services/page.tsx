import type { Metadata } from "next";
import Link from "next/link";
import { EmptyState } from "@/components/ui/empty-state";
import { PageHeader } from "@/components/ui/page-header";
import { StoreUnavailableNotice } from "@/components/ui/store-unavailable";
import { requireConsoleActor } from "@/lib/auth/console-actor";
import { formatCount, formatPercent } from "@/lib/console/format";
import { loadServiceList } from "@/lib/console/services";
import { withStore } from "@/lib/console/store";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Services" };

export default async function ServicesPage() {
  await requireConsoleActor("viewer");
  const loaded = await withStore((db) => loadServiceList(db));
  if (!loaded.ok) return <StoreUnavailableNotice />;
  const services = loaded.data;
  return (
    <>
      <PageHeader title="Services & keys" description="Every service weir keeps last-seen state for. Open one to browse its keys." />
      {services.length === 0 ? (
        <EmptyState title="No services registered yet.">Register one with PUT /api/v1/services/:id, then send checks.</EmptyState>
      ) : (
        <div className="table-wrap">
          <table data-testid="services">
            <thead>
              <tr>
                <th>Service</th>
                <th>Ignored paths</th>
                <th className="num">Versions kept</th>
                <th className="num">Checks (24 h)</th>
                <th className="num">Duplicate rate (24 h)</th>
              </tr>
            </thead>
            <tbody>
              {services.map((s) => (
                <tr key={s.id}>
                  <td>
                    <Link href={`/services/${s.id}`}>{s.displayName}</Link> <code className="muted">{s.id}</code>
                  </td>
                  <td className="break">{s.ignoredPaths.length ? <code>{s.ignoredPaths.join(", ")}</code> : <span className="muted">none</span>}</td>
                  <td className="num">{s.historyDepth === 0 ? "hashes only" : s.historyDepth}</td>
                  <td className="num">{formatCount(s.checks24h)}</td>
                  <td className="num">{formatPercent(s.duplicates24h, s.checks24h)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </>
  );
}
