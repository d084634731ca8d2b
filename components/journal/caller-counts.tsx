import { formatCount, formatPercent } from "@/lib/views/format";
import { movement } from "@/lib/views/journal-format";
import type { CallerView } from "@/lib/views/journal-callers";
import { CallerName } from "./caller-name";

export interface CallerCountRow {
  caller: CallerView | null;
  duplicates: number;
  count: number;
  /** With `compared`: the duplicates of the period before. */
  previousDuplicates?: number;
}

/** Callers by the duplicates they sent in a range, with every answer they got; `compared` sets each beside the period before. */
export function CallerCounts({ callers, compared = false, testId = "top-callers" }: { callers: CallerCountRow[]; compared?: boolean; testId?: string }) {
  return (
    <div className="table-wrap">
      <table className="small" data-testid={testId}>
        <thead>
          <tr>
            <th>Caller</th>
            <th className="num">Duplicates</th>
            {compared ? <th className="num">Before</th> : null}
            {compared ? <th className="num">Change</th> : null}
            <th className="num">Answers</th>
            <th className="num">Duplicate share</th>
          </tr>
        </thead>
        <tbody>
          {callers.map((c) => (
            <tr key={c.caller?.id ?? ""}>
              <td className="cell-wide">
                <CallerName caller={c.caller} />
              </td>
              <td className="num">{formatCount(c.duplicates)}</td>
              {compared ? <td className="num">{formatCount(c.previousDuplicates ?? 0)}</td> : null}
              {compared ? <td className="num">{movement(c.duplicates, c.previousDuplicates ?? 0)}</td> : null}
              <td className="num">{formatCount(c.count)}</td>
              <td className="num">{formatPercent(c.duplicates, c.count)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
