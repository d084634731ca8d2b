import Link from "next/link";
import { EmptyState } from "@/components/ui/empty-state";
import { formatDuration } from "@/lib/views/format";
import type { KeyTimelineView } from "@/lib/views/journal-timeline";
import { GapNotice } from "./gap-notice";
import { JournalStateNote } from "./journal-state-note";
import { TimelineTable } from "./timeline-table";

/**
 * The "Decisions" section of a key's page: every answer the journal kept for it, newest first, a page
 * at a time. `olderHref` builds the link to the next older page from the `before` it is given.
 */
export function KeyTimeline({ timeline, olderHref, newestHref }: { timeline: KeyTimelineView; olderHref(before: number): string; newestHref: string | null }) {
  return (
    <section className="panel" aria-labelledby="key-decisions">
      <h2 id="key-decisions">Decisions</h2>
      <p className="small muted">
        Every answer weir gave for this key, newest first, as the decision journal kept it (for {formatDuration(timeline.retentionMs / 1000)}).
      </p>
      <JournalStateNote enabled={timeline.enabled} level={timeline.level} />
      <GapNotice gaps={timeline.gaps} />
      {timeline.entries.length === 0 ? (
        <EmptyState title="No decision of this key is in the journal." />
      ) : (
        <TimelineTable mode={timeline.mode} entries={timeline.entries} />
      )}
      {timeline.olderBefore !== null || newestHref ? (
        <nav className="pager" aria-label="Decision pages">
          {newestHref ? <Link href={newestHref}>« Newest decisions</Link> : null}
          {timeline.olderBefore !== null ? (
            <Link className="button" href={olderHref(timeline.olderBefore)}>
              Older decisions »
            </Link>
          ) : (
            <span className="muted small">Oldest kept decision</span>
          )}
        </nav>
      ) : null}
    </section>
  );
}
