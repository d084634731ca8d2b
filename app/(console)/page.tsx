import type { Metadata } from "next";
import Link from "next/link";
import { after } from "next/server";
import { DecisionsChart } from "@/components/charts/decisions-chart";
import { RateChart } from "@/components/charts/rate-chart";
import { LiveRefresh } from "@/components/ui/live-refresh";
import { hrefWith } from "@/components/ui/pager";
import { PageHeader } from "@/components/ui/page-header";
import { StoreUnavailableNotice } from "@/components/ui/store-unavailable";
import { authEnv } from "@/lib/auth/auth-env";
import { requireConsoleActor } from "@/lib/auth/console-actor";
import type { BucketLink } from "@/lib/views/bucket-link";
import { formatCount, formatPercent } from "@/lib/views/format";
import { loadOverview, maintainStatsRollup, TOP_NOW_MINUTES } from "@/lib/views/overview";
import { parseRange, previousLabel, RANGES } from "@/lib/views/ranges";
import { toSeriesColumns } from "@/lib/views/series-columns";
import { zoneName } from "@/lib/views/time-zone";
import { displayZone } from "@/lib/views/zone-preference";
import { withStore } from "@/lib/console/store";
import { param, type SearchParams } from "@/lib/validation/console-common";
import { RangeTabs } from "./_components/range-tabs";
import { FindingsList } from "./_components/findings-list";
import { SubjectTable } from "./_components/subject-table";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Overview" };

export default async function OverviewPage({ searchParams }: { searchParams: Promise<SearchParams> }) {
  await requireConsoleActor("read");
  const params = await searchParams;
  const range = parseRange(param(params.range));
  const kind = param(params.kind) === "group" ? "group" : "service";
  const rawSubject = param(params.subject);
  const subject = typeof rawSubject === "string" && rawSubject.length <= 128 ? rawSubject : undefined;
  after(maintainStatsRollup);
  const loaded = await withStore((db) => loadOverview(db, { range, kind, subject }));
  if (!loaded.ok) return <StoreUnavailableNotice />;
  const data = loaded.data;
  const zone = await displayZone();
  const total = data.series.reduce((sum, p) => sum + p.checks, 0);
  const duplicates = data.series.reduce((sum, p) => sum + p.duplicates, 0);
  const before = data.series.reduce((sum, p) => ({ checks: sum.checks + p.previousChecks, duplicates: sum.duplicates + (p.previousRate ?? 0) * p.previousChecks }), { checks: 0, duplicates: 0 });
  const link: BucketLink | null = subject ? { kind, id: subject } : null;
  // One object for both charts: the React payload carries it once.
  const series = toSeriesColumns(data.series, data.stepSeconds * 1000);
  const chartTitle = subject ? `${kind === "group" ? "Consumer group" : "Service"} ${subject}` : kind === "group" ? "All consumer groups" : "All services";
  return (
    <>
      <PageHeader
        title="Overview"
        description={`Decisions from the per-minute stats rollup, ${RANGES[range].label.toLowerCase()}. Times in ${zoneName(zone)}.`}
        actions={<RangeTabs current={range} kind={kind} subject={subject ?? null} />}
      />
      {authEnv().demo ? (
        <p className="callout small" data-testid="demo-data">
          <strong>Demo data.</strong> <code>npm run demo</code> made a simulated week of order traffic through weir&apos;s own check: a daily rhythm, a
          broker&apos;s redelivery trend, a retry storm, and a replay of the search index with the reset that let it through (see{" "}
          <Link href="/reset">Resets</Link>). Pick &quot;Last 7 days&quot;; the present&apos;s traffic is live.
        </p>
      ) : null}
      <section className="panel" aria-labelledby="chart-title">
        <div className="page-header">
          <h2 id="chart-title">{chartTitle}</h2>
          <nav className="tabs" aria-label="Chart subject">
            <Link href={hrefWith("/", { range, kind: "service" })} aria-current={!subject && kind === "service" ? "page" : undefined}>
              All services
            </Link>
            <Link href={hrefWith("/", { range, kind: "group" })} aria-current={!subject && kind === "group" ? "page" : undefined}>
              All groups
            </Link>
          </nav>
        </div>
        <p className="small muted" data-testid="rate-summary">
          Duplicate rate {formatPercent(duplicates, total)} of {formatCount(total)} checks; {previousLabel(range).toLowerCase()}{" "}
          {formatPercent(before.duplicates, before.checks)} of {formatCount(before.checks)}. One point per {data.stepSeconds / 60} min.{" "}
          {link ? "Click a point or bar to open what happened in it." : "Pick one service or group below to open a bucket's decisions from the chart."}
        </p>
        <LiveRefresh />
        <h3 className="chart-title">Duplicate rate</h3>
        <RateChart series={series} findings={data.findings} stepSeconds={data.stepSeconds} previousLabel={previousLabel(range)} link={link} />
        <FindingsList findings={data.findings} stepSeconds={data.stepSeconds} link={link} />
        <h3 className="chart-title">Decisions per bucket</h3>
        <p className="small muted">
          {formatCount(total)} checks, {formatPercent(duplicates, total)} duplicates; one bar per {data.stepSeconds / 60} min.
        </p>
        <DecisionsChart series={series} findings={data.findings} stepSeconds={data.stepSeconds} link={link} />
      </section>
      <section className="panel">
        <h2>Most duplicates now (last {TOP_NOW_MINUTES} min)</h2>
        {data.topNow.length === 0 ? (
          <p className="muted small">No duplicates in the last {TOP_NOW_MINUTES} minutes.</p>
        ) : (
          <ol data-testid="top-now">
            {data.topNow.map((row) => (
              <li key={row.subject}>
                <Link href={hrefWith("/", { range, kind: "service", subject: row.subject })}>{row.subject}</Link>:{" "}
                {formatCount(row.duplicates)} duplicate{row.duplicates === 1 ? "" : "s"} of {formatCount(row.checks)} checks ({formatPercent(row.duplicates, row.checks)})
              </li>
            ))}
          </ol>
        )}
      </section>
      <section className="panel">
        <h2>Services</h2>
        <SubjectTable kind="service" rows={data.services} range={range} selected={kind === "service" ? (subject ?? null) : null} detailBase="/services/" />
      </section>
      <section className="panel">
        <h2>Consumer groups</h2>
        <SubjectTable kind="group" rows={data.groups} range={range} selected={kind === "group" ? (subject ?? null) : null} detailBase="/groups/" />
      </section>
    </>
  );
}
