import Link from "next/link";
import { Badge } from "@/components/ui/badge";
import { EmptyState } from "@/components/ui/empty-state";
import { formatCount, formatInstant } from "@/lib/views/format";
import type { ResetView } from "@/lib/reset/views";

export function describeSelection(r: ResetView): string {
  if (r.mode === "key") return "one key";
  if (r.mode === "list") return `${formatCount(r.messageIdCount ?? 0)} listed ids`;
  const parts = [r.prefix ? `prefix "${r.prefix}"` : "all ids"];
  if (r.changedFrom) parts.push(`from ${formatInstant(r.changedFrom)}`);
  if (r.changedTo) parts.push(`before ${formatInstant(r.changedTo)}`);
  return parts.join(", ");
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
              <td className="small">{describeSelection(r)}</td>
              <td>
                <Badge tone={r.status} />
              </td>
              <td className="num">{formatCount(r.affected)}</td>
              <td className="small">{r.actor}</td>
              <td className="small break">{r.reason}</td>
              <td className="small">{formatInstant(r.createdAt)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
