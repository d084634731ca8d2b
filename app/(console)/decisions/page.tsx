import { Instant } from "@/components/ui/time-zone";
import type { Metadata } from "next";
import Link from "next/link";
import { z } from "zod";
import { CallerCounts } from "@/components/journal/caller-counts";
import { DecisionCounts } from "@/components/journal/decision-counts";
import { GapNotice } from "@/components/journal/gap-notice";
import { JournalStateNote } from "@/components/journal/journal-state-note";
import { KeyCounts } from "@/components/journal/key-counts";
import { EmptyState } from "@/components/ui/empty-state";
import { InvalidFilters } from "@/components/ui/invalid-filters";
import { hrefWith } from "@/components/ui/pager";
import { PageHeader } from "@/components/ui/page-header";
import { StoreUnavailableNotice } from "@/components/ui/store-unavailable";
import { requireConsoleActor } from "@/lib/auth/console-actor";
import { withStore } from "@/lib/console/store";
import { type SearchParams } from "@/lib/validation/console-common";
import { bucketQuerySchema } from "@/lib/validation/console-journal";
import { formatCount } from "@/lib/views/format";
import { BUCKET_KEYS, loadBucketDecisions } from "@/lib/views/journal-bucket";
import { KIND_LABEL, rangeParam, subjectHref } from "@/lib/views/journal-format";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Decisions in a bucket" };

export default async function BucketDecisionsPage({ searchParams }: { searchParams: Promise<SearchParams> }) {
  await requireConsoleActor("read");
  const parsed = bucketQuerySchema.safeParse(await searchParams);
  if (!parsed.success) {
    return (
      <>
        <PageHeader title="Decisions" description="A chart bucket's decisions: open one from a bar of the overview chart." />
        <InvalidFilters what="decisions" fields={z.flattenError(parsed.error).fieldErrors as Record<string, string[]>} />
      </>
    );
  }
  const q = parsed.data;
  const loaded = await withStore((db) => loadBucketDecisions(db, q));
  if (!loaded.ok) return <StoreUnavailableNotice />;
  const b = loaded.data;
  const range = { kind: b.kind, subject: b.subject, from: rangeParam(q.from.getTime()), to: rangeParam(q.to.getTime()) };
  const stats = b.stats;
  return (
    <>
      <PageHeader
        title={`Decisions of ${KIND_LABEL[b.kind].toLowerCase()} ${b.subject}`}
        description={
          <>
            <Instant value={b.from} /> to <Instant value={b.to} /> · <Link href={subjectHref(b.kind, b.subject)}>{b.subject}</Link>
          </>
        }
        actions={
          <>
            <Link className="button" href={hrefWith("/incidents", range)}>
              Incident view of this range
            </Link>
            <Link className="button" href={hrefWith("/sources", { kind: b.kind, subject: b.subject })}>
              Sources of duplicates
            </Link>
          </>
        }
      />
      <JournalStateNote enabled={b.enabled} level={b.level} />
      <GapNotice gaps={b.gaps} />
      <div className="grid-2">
        <section className="panel" aria-labelledby="counted">
          <h2 id="counted">What the chart counted</h2>
          <p className="small" data-testid="bucket-stats">
            {stats
              ? `${formatCount(stats.checks)} checks: ${formatCount(stats.new)} new, ${formatCount(stats.changed)} changed, ${formatCount(stats.duplicates)} duplicates, ${formatCount(stats.errors)} errors.`
              : "No decision in this range (stats rollup)."}
          </p>
          <p className="small muted">From the per-minute stats rollup: every decision, whatever the journal keeps.</p>
        </section>
        <section className="panel" aria-labelledby="kept">
          <h2 id="kept">What the journal kept</h2>
          <DecisionCounts counts={b.counts} showMode={false} />
        </section>
      </div>
      <section className="panel" aria-labelledby="keys">
        <div className="page-header">
          <h2 id="keys">{b.show === "duplicates" ? "Duplicated keys" : "Keys"}</h2>
          <nav className="tabs" aria-label="Keys shown">
            <Link href={hrefWith("/decisions", { ...range, show: "duplicates" })} aria-current={b.show === "duplicates" ? "page" : undefined}>
              Duplicates
            </Link>
            <Link href={hrefWith("/decisions", { ...range, show: "all" })} aria-current={b.show === "all" ? "page" : undefined}>
              Every answer
            </Link>
          </nav>
        </div>
        {b.keys.length === 0 ? (
          <EmptyState title={b.show === "duplicates" ? "No duplicate in this range is in the journal." : "No answer in this range is in the journal."} />
        ) : (
          <>
            <p className="small muted">
              {b.keys.length === BUCKET_KEYS ? `The ${BUCKET_KEYS} keys` : "The keys"} with the most {b.show === "duplicates" ? "duplicates" : "answers"}, most first. Open a key
              for its every answer, caller and request id.
            </p>
            <KeyCounts keys={b.keys} noun={b.show === "duplicates" ? "Duplicates" : "Answers"} />
          </>
        )}
      </section>
      <section className="panel" aria-labelledby="callers">
        <h2 id="callers">Callers</h2>
        {b.callers.length === 0 ? <p className="muted small">No caller in the journal for this range.</p> : <CallerCounts callers={b.callers} />}
      </section>
    </>
  );
}
