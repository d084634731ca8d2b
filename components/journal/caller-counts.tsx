import { formatCount, formatPercent } from "@/lib/views/format";
import type { CallerCountView } from "@/lib/views/journal-bucket";
import { CallerName } from "./caller-name";

/** Callers by the duplicates they sent in a range, with every answer they got beside it. */
export function CallerCounts({ callers }: { callers: CallerCountView[] }) {
  return (
    <div className="table-wrap">
      <table className="small" data-testid="top-callers">
        <thead>
          <tr>
            <th>Caller</th>
            <th className="num">Duplicates</th>
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
              <td className="num">{formatCount(c.count)}</td>
              <td className="num">{formatPercent(c.duplicates, c.count)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
