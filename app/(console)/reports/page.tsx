import type { Metadata } from "next";
import Link from "next/link";
import { z } from "zod";
import { EmptyState } from "@/components/ui/empty-state";
import { InvalidFilters } from "@/components/ui/invalid-filters";
import { hrefWith } from "@/components/ui/pager";
import { PageHeader } from "@/components/ui/page-header";
import { StoreUnavailableNotice } from "@/components/ui/store-unavailable";
import { requireConsoleActor } from "@/lib/auth/console-actor";
import { withStore } from "@/lib/console/store";
import { type SearchParams } from "@/lib/validation/console-common";
import { blockedReportQuerySchema } from "@/lib/validation/console-journal";
import { formatCount, formatPercent } from "@/lib/views/format";
import { loadBlockedReport, REPORT_PERIODS, REPORT_SUBJECTS_SHOWN, shownRows } from "@/lib/views/journal-duplicates-blocked";
import { KIND_LABEL, type JournalKind } from "@/lib/views/journal-format";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Duplicates blocked" };

const KINDS: [JournalKind, string][] = [
  ["service", "Services"],
  ["group", "Consumer groups"],
  ["scope", "Idempotency scopes"],
];

export default async function BlockedReportPage({ searchParams }: { searchParams: Promise<SearchParams> }) {
  await requireConsoleActor("read");
  const parsed = blockedReportQuerySchema.safeParse(await searchParams);
  const header = (q: { period: string; kind: string } | null) => (
    <PageHeader
      title="Duplicates blocked"
      description={`Repeats weir turned away, per ${q?.period ?? "week"} (UTC) for the last ${REPORT_PERIODS}, from the stats rollup: the side effects that did not run twice. Each ${q?.period ?? "week"} lists its ${REPORT_SUBJECTS_SHOWN} busiest and sums the rest; the CSV holds every row.`}
      actions={
        q ? (
          <a className="button" href={hrefWith("/reports/export", q)} download data-testid="export-report-csv">
            Export CSV
          </a>
        ) : null
      }
    />
  );
  if (!parsed.success) {
    return (
      <>
        {header(null)}
        <InvalidFilters what="periods" fields={z.flattenError(parsed.error).fieldErrors as Record<string, string[]>} />
      </>
    );
  }
  const q = parsed.data;
  const loaded = await withStore((db) => loadBlockedReport(db, q));
  if (!loaded.ok) return <StoreUnavailableNotice />;
  const report = loaded.data;
  if (q.start !== undefined && !report.periods.some((p) => p.start === q.start)) {
    return (
      <>
        {header(q)}
        <InvalidFilters what="periods" fields={{ start: [`not the first day of one of the last ${REPORT_PERIODS} ${q.period}s (UTC)`] }} />
      </>
    );
  }
  const shown = report.periods.filter((p) => p.checks > 0);
  const plural = `${KIND_LABEL[q.kind].toLowerCase()}s`;
  return (
    <>
      {header(q)}
      <div className="actions" style={{ marginBottom: "1rem" }}>
        <nav className="tabs" aria-label="Period">
          {(["week", "month"] as const).map((period) => (
            <Link key={period} href={hrefWith("/reports", { period, kind: q.kind })} aria-current={q.period === period ? "page" : undefined}>
              Per {period}
            </Link>
          ))}
        </nav>
        <nav className="tabs" aria-label="Subjects">
          {KINDS.map(([kind, label]) => (
            <Link key={kind} href={hrefWith("/reports", { period: q.period, kind })} aria-current={q.kind === kind ? "page" : undefined}>
              {label}
            </Link>
          ))}
        </nav>
      </div>
      {shown.length === 0 ? (
        <EmptyState title={`No decisions of any ${KIND_LABEL[q.kind].toLowerCase()} in the last ${REPORT_PERIODS} ${q.period}s.`} />
      ) : (
        <div className="table-wrap">
          <table className="small" data-testid="blocked-report">
            <thead>
              <tr>
                <th>{q.period === "week" ? "Week" : "Month"}</th>
                <th>{KIND_LABEL[q.kind]}</th>
                <th className="num">Duplicates blocked</th>
                <th className="num">Checks</th>
                <th className="num">Share</th>
              </tr>
            </thead>
            {shown.map((p) => {
              const { rows, rest } = shownRows(p, q.start);
              return (
                <tbody key={p.start}>
                  <tr>
                    <th scope="rowgroup">
                      {p.label}
                      {p.partial ? " (so far)" : ""}
                    </th>
                    <th scope="row">All</th>
                    <td className="num">{formatCount(p.duplicates)}</td>
                    <td className="num">{formatCount(p.checks)}</td>
                    <td className="num">{formatPercent(p.duplicates, p.checks)}</td>
                  </tr>
                  {rows.map((r) => (
                    <tr key={r.subject}>
                      <td />
                      <td className="break">{r.subject}</td>
                      <td className="num">{formatCount(r.duplicates)}</td>
                      <td className="num">{formatCount(r.checks)}</td>
                      <td className="num">{formatPercent(r.duplicates, r.checks)}</td>
                    </tr>
                  ))}
                  {rest ? (
                    <tr data-testid="report-rest">
                      <td />
                      <td>
                        <Link href={hrefWith("/reports", { period: q.period, kind: q.kind, start: p.start })}>
                          {formatCount(rest.subjects)} more {plural}
                        </Link>
                      </td>
                      <td className="num">{formatCount(rest.duplicates)}</td>
                      <td className="num">{formatCount(rest.checks)}</td>
                      <td className="num">{formatPercent(rest.duplicates, rest.checks)}</td>
                    </tr>
                  ) : null}
                </tbody>
              );
            })}
          </table>
        </div>
      )}
    </>
  );
}
