import { Badge } from "@/components/ui/badge";
import { VisibleText } from "@/components/ui/visible-text";
import { Instant } from "@/components/ui/time-zone";
import type { JournalModeName } from "@/lib/views/journal-format";
import type { TimelineEntry } from "@/lib/views/journal-timeline";
import { CallerName } from "./caller-name";

/** What a decision's version and matched time mean in each mode. */
const COLUMNS: Record<JournalModeName, { version: string | null; matched: string }> = {
  last_seen: { version: "Version", matched: "Matched version accepted" },
  window: { version: null, matched: "Window started" },
  idempotency: { version: "Attempt", matched: "Started or completed" },
};

/** A key's answers, newest first: when (to the microsecond, in the viewer's zone), what, for whom, and how to find the request. */
export function TimelineTable({ mode, entries }: { mode: JournalModeName; entries: TimelineEntry[] }) {
  const columns = COLUMNS[mode];
  return (
    <div className="table-wrap">
      <table className="small" data-testid="key-timeline">
        <thead>
          <tr>
            <th>When</th>
            <th>Decision</th>
            {columns.version ? <th className="num">{columns.version}</th> : null}
            <th>{columns.matched}</th>
            <th>Caller</th>
            <th>Request id</th>
            <th>Trace id</th>
          </tr>
        </thead>
        <tbody>
          {entries.map((e) => (
            <tr key={`${e.atUs}`}>
              <td className="mono">
                <Instant value={e.at} precision="micro" />
              </td>
              <td>
                <Badge tone={e.decision} />
              </td>
              {columns.version ? <td className="num">{e.version ?? "–"}</td> : null}
              <td className="mono"><Instant value={e.matchedAt} precision="micro" /></td>
              <td className="cell-wide">
                <CallerName caller={e.caller} />
              </td>
              <td className="mono break cell-wide">{e.requestId ? <VisibleText text={e.requestId} /> : "–"}</td>
              <td className="mono break">
                {e.traceId === null ? "–" : e.traceHref ? <a href={e.traceHref} rel="noreferrer" target="_blank">{e.traceId}</a> : e.traceId}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
