import { Badge } from "@/components/ui/badge";
import { formatCount } from "@/lib/views/format";
import { MODE_LABEL, type JournalModeName } from "@/lib/views/journal-format";

/** The journal's entries by mode and decision, as words and numbers. */
export function DecisionCounts({ counts, showMode = true }: { counts: { mode: JournalModeName; decision: string; count: number }[]; showMode?: boolean }) {
  if (counts.length === 0) return <p className="muted small" data-testid="decision-counts">The journal kept no decision in this range.</p>;
  const total = counts.reduce((sum, c) => sum + c.count, 0);
  return (
    <div className="table-wrap">
      <table className="small" data-testid="decision-counts">
        <thead>
          <tr>
            {showMode ? <th>Mode</th> : null}
            <th>Decision</th>
            <th className="num">Entries</th>
          </tr>
        </thead>
        <tbody>
          {counts.map((c) => (
            <tr key={`${c.mode}:${c.decision}`}>
              {showMode ? <td>{MODE_LABEL[c.mode]}</td> : null}
              <td>
                <Badge tone={c.decision} />
              </td>
              <td className="num">{formatCount(c.count)}</td>
            </tr>
          ))}
        </tbody>
        <tfoot>
          <tr>
            <th colSpan={showMode ? 2 : 1}>Total</th>
            <td className="num">{formatCount(total)}</td>
          </tr>
        </tfoot>
      </table>
    </div>
  );
}
