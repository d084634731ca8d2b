import type { DiffEntry } from "@/lib/views/json-diff";
import { Badge } from "./badge";
import { EmptyState } from "./empty-state";
import { VisibleText } from "./visible-text";

/** Field-level diff; values are untrusted payload text and are rendered as text only. */
export function DiffTable({ entries }: { entries: DiffEntry[] }) {
  if (entries.length === 0) return <EmptyState title="No differences: the two payloads have the same structure and values." />;
  return (
    <div className="table-wrap">
      <table data-testid="diff-table">
        <thead>
          <tr>
            <th>Field</th>
            <th>Change</th>
            <th>Before</th>
            <th>After</th>
          </tr>
        </thead>
        <tbody>
          {entries.map((entry) => (
            <tr key={`${entry.kind}:${entry.path}`}>
              <td className="break">
                <code>{entry.path ? <VisibleText text={entry.path} /> : "(whole payload)"}</code>
              </td>
              <td>
                <Badge tone={entry.kind} /> {entry.ignored ? <Badge tone="ignored">not hashed</Badge> : null}
              </td>
              <td className="break">
                <code>
                  <VisibleText text={entry.before ?? ""} />
                </code>
              </td>
              <td className="break">
                <code>
                  <VisibleText text={entry.after ?? ""} />
                </code>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
