import { Instant } from "@/components/ui/time-zone";
import type { Metadata } from "next";
import Form from "next/form";
import Link from "next/link";
import { z } from "zod";
import { CallerCounts } from "@/components/journal/caller-counts";
import { GapNotice } from "@/components/journal/gap-notice";
import { JournalStateNote } from "@/components/journal/journal-state-note";
import { KindOptions } from "@/components/journal/range-form";
import { EmptyState } from "@/components/ui/empty-state";
import { Field } from "@/components/ui/field";
import { InvalidFilters } from "@/components/ui/invalid-filters";
import { hrefWith } from "@/components/ui/pager";
import { PageHeader } from "@/components/ui/page-header";
import { StoreUnavailableNotice } from "@/components/ui/store-unavailable";
import { requireConsoleActor } from "@/lib/auth/console-actor";
import { withStore } from "@/lib/console/store";
import { rawValues, type SearchParams } from "@/lib/validation/console-common";
import { SOURCE_PERIODS, sourcesQuerySchema, type SourcePeriod } from "@/lib/validation/console-journal";

import { KIND_LABEL } from "@/lib/views/journal-format";
import { loadSources } from "@/lib/views/journal-sources";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Sources of duplicates" };

const PERIOD_LABEL: Record<SourcePeriod, string> = { "1h": "Last hour", "24h": "Last 24 h", "7d": "Last 7 days" };

export default async function SourcesPage({ searchParams }: { searchParams: Promise<SearchParams> }) {
  await requireConsoleActor("read");
  const params = await searchParams;
  const raw = rawValues(params, ["subject"]);
  const parsed = sourcesQuerySchema.safeParse(params);
  const fieldErrors = parsed.success ? {} : (z.flattenError(parsed.error).fieldErrors as Record<string, string[]>);
  const q = parsed.success ? parsed.data : null;
  const header = (
    <PageHeader
      title="Sources of duplicates"
      description="Which callers send the most duplicates, and how that moved against the period of equal length before. From the decision journal."
      actions={
        <nav className="tabs" aria-label="Period">
          {(Object.keys(SOURCE_PERIODS) as SourcePeriod[]).map((period) => (
            <Link key={period} href={hrefWith("/sources", { period, kind: q?.kind, subject: q?.subject })} aria-current={q?.period === period ? "page" : undefined}>
              {PERIOD_LABEL[period]}
            </Link>
          ))}
        </nav>
      }
    />
  );
  const form = (
    <Form action="/sources" className="panel filters" aria-label="Subject">
      <input type="hidden" name="period" value={q?.period ?? "24h"} />
      <Field label="Kind" errors={fieldErrors.kind}>
        <select name="kind" defaultValue={q?.kind ?? "service"}>
          <KindOptions />
        </select>
      </Field>
      <Field label="One of them (optional)" errors={fieldErrors.subject}>
        <input name="subject" defaultValue={q?.subject ?? raw.subject ?? ""} maxLength={128} size={20} />
      </Field>
      <button type="submit" className="primary">
        Show
      </button>
    </Form>
  );
  if (!q) {
    return (
      <>
        {header}
        {form}
        <InvalidFilters what="sources" fields={{ period: fieldErrors.period }} />
      </>
    );
  }
  const loaded = await withStore((db) => loadSources(db, q));
  if (!loaded.ok) return <StoreUnavailableNotice />;
  const v = loaded.data;
  const what = v.subject ? `${KIND_LABEL[v.kind].toLowerCase()} ${v.subject}` : `every ${KIND_LABEL[v.kind].toLowerCase()}`;
  return (
    <>
      {header}
      {form}
      <p className="small" data-testid="sources-range">
        Duplicates sent to {what}, <Instant value={v.from} /> to <Instant value={v.to} />, against <Instant value={v.previousFrom} /> to <Instant value={v.from} />.
        {v.previousBeyondRetention ? " The earlier period reaches past the journal's retention: its counts are partial." : null}
      </p>
      <JournalStateNote enabled={v.enabled} />
      <GapNotice gaps={v.gaps} />
      <section className="panel" aria-labelledby="callers">
        <h2 id="callers">Callers, most duplicates first</h2>
        {v.rows.length === 0 ? (
          <EmptyState title="No duplicates in either period." />
        ) : (
          <CallerCounts callers={v.rows} compared testId="sources" />
        )}
      </section>
    </>
  );
}
