import { Instant } from "@/components/ui/time-zone";
import type { Metadata } from "next";
import { z } from "zod";
import { CallerCounts } from "@/components/journal/caller-counts";
import { DecisionCounts } from "@/components/journal/decision-counts";
import { GapNotice } from "@/components/journal/gap-notice";
import { JournalStateNote } from "@/components/journal/journal-state-note";
import { KeyCounts } from "@/components/journal/key-counts";
import { RangeForm } from "@/components/journal/range-form";
import { EmptyState } from "@/components/ui/empty-state";
import { InvalidFilters } from "@/components/ui/invalid-filters";
import { hrefWith } from "@/components/ui/pager";
import { PageHeader } from "@/components/ui/page-header";
import { StoreUnavailableNotice } from "@/components/ui/store-unavailable";
import { requireConsoleActor } from "@/lib/auth/console-actor";
import { withStore } from "@/lib/console/store";
import { rawValues, type SearchParams } from "@/lib/validation/console-common";
import { journalRangeFilterSchema } from "@/lib/validation/console-journal";
import { formatCount, formatDuration } from "@/lib/views/format";
import { loadIncident, withDefaultRange } from "@/lib/views/journal-incident";
import { JOURNAL_EXPORT_MAX_ROWS } from "@/lib/views/journal-export";
import { KIND_LABEL, rangeParam } from "@/lib/views/journal-format";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Incident view" };

export default async function IncidentPage({ searchParams }: { searchParams: Promise<SearchParams> }) {
  await requireConsoleActor("read");
  const params = withDefaultRange(await searchParams);
  const raw = rawValues(params, ["from", "to", "subject"]);
  const parsed = journalRangeFilterSchema.safeParse(params);
  const fieldErrors = parsed.success ? {} : (z.flattenError(parsed.error).fieldErrors as Record<string, string[]>);
  const filter = parsed.success ? parsed.data : null;
  const header = (
    <PageHeader
      title="Incident view"
      description="Every decision the journal kept in a time range, for all subjects or one: by kind, the most duplicated keys, the callers, and the entries to download."
    />
  );
  const form = <RangeForm action="/incidents" values={filter ?? {}} raw={raw} fieldErrors={fieldErrors} />;
  if (!filter) {
    return (
      <>
        {header}
        {form}
        <InvalidFilters what="decisions" />
      </>
    );
  }
  const loaded = await withStore((db) => loadIncident(db, filter));
  if (!loaded.ok) return <StoreUnavailableNotice />;
  const v = loaded.data;
  const query = { from: rangeParam(filter.from.getTime()), to: rangeParam(filter.to.getTime()), kind: v.kind, subject: v.subject };
  const total = v.counts.reduce((sum, c) => sum + c.count, 0);
  return (
    <>
      {header}
      {form}
      <p className="small" data-testid="incident-range">
        <Instant value={v.from} /> to <Instant value={v.to} />
        {v.kind ? ` · ${KIND_LABEL[v.kind].toLowerCase()}${v.subject ? ` ${v.subject}` : "s"}` : " · every subject"}: {formatCount(total)} entries kept.{" "}
        {v.beyondRetention ? `The journal keeps ${formatDuration(v.retentionMs / 1000)}: older entries are gone.` : null}
      </p>
      <JournalStateNote enabled={v.enabled} />
      <GapNotice gaps={v.gaps} />
      <section className="panel" aria-labelledby="by-kind">
        <h2 id="by-kind">Decisions by kind</h2>
        <DecisionCounts counts={v.counts} />
      </section>
      <section className="panel" aria-labelledby="top-keys">
        <h2 id="top-keys">Most duplicated keys</h2>
        {v.keys.length === 0 ? (
          <EmptyState title="No duplicate in this range." />
        ) : (
          <>
            <p className="small muted">The keys weir turned away most often as repeats, with the first and last of those repeats and who sent them.</p>
            <KeyCounts keys={v.keys} showSubject noun="Duplicates" />
          </>
        )}
      </section>
      <section className="panel" aria-labelledby="top-callers">
        <h2 id="top-callers">Top callers</h2>
        {v.callers.length === 0 ? <p className="muted small">No caller in this range.</p> : <CallerCounts callers={v.callers} />}
      </section>
      <section className="panel" aria-labelledby="export">
        <h2 id="export">Export the entries</h2>
        <p className="small muted">
          Every entry of the range, oldest first, with its caller, request id and trace id (at most {formatCount(JOURNAL_EXPORT_MAX_ROWS)}; narrow the range for
          more).
        </p>
        <div className="actions">
          <a className="button" href={hrefWith("/incidents/export", { ...query, format: "csv" })} download data-testid="export-journal-csv">
            Download CSV
          </a>
          <a className="button" href={hrefWith("/incidents/export", { ...query, format: "ndjson" })} download data-testid="export-journal-ndjson">
            Download NDJSON
          </a>
        </div>
      </section>
    </>
  );
}
