import { Instant } from "@/components/ui/time-zone";
import Link from "next/link";
import { Badge } from "@/components/ui/badge";
import { EmptyState } from "@/components/ui/empty-state";
import { formatCount } from "@/lib/views/format";
import type { ResetView } from "@/lib/reset/views";

/** What a reset selected: one key, a list, or a filter (its times in the viewer's zone). */
export function SelectionText({ reset: r }: { reset: ResetView }) {
  if (r.mode === "key") return <>one key</>;
  if (r.mode === "list") return <>{formatCount(r.messageIdCount ?? 0)} listed ids</>;
  return (
    <>
      {r.prefix ? `prefix "${r.prefix}"` : "all ids"}
      {r.changedFrom ? (
        <>
          , from <Instant value={r.changedFrom} />
        </>
      ) : null}
      {r.changedTo ? (
        <>
          , before <Instant value={r.changedTo} />
        </>
      ) : null}
    </>
  );
}

export function ResetList({ resets }: { resets: ResetView[] }) {
  if (resets.length === 0) return <EmptyState title="No resets yet." />;
  return (
    <div className="table-wrap">
      <table data-testid="resets">
        <thead>
          <tr>
            <th>#</th>
            <th>Target</th>
            <th>Selection</th>
            <th>Status</th>
            <th className="num">Rows</th>
            <th>By</th>
            <th>Reason</th>
            <th>Started</th>
          </tr>
        </thead>
        <tbody>
          {resets.map((r) => (
            <tr key={r.id}>
              <td>
                <Link href={`/reset/${r.id}`}>#{r.id}</Link>
              </td>
              <td>
                {r.kind === "last_seen" ? "service" : "group"} <code>{r.subject}</code>
              </td>
              <td className="small"><SelectionText reset={r} /></td>
              <td>
                <Badge tone={r.status} />
              </td>
              <td className="num">{formatCount(r.affected)}</td>
              <td className="small">{r.actor}</td>
              <td className="small break">{r.reason}</td>
              <td className="small"><Instant value={r.createdAt} /></td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
