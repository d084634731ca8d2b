import Link from "next/link";
import { VisibleText } from "@/components/ui/visible-text";
import { EmptyState } from "@/components/ui/empty-state";
import { RateChange } from "@/components/ui/rate-change";
import { hrefWith } from "@/components/ui/pager";
import { formatCount, formatPercent } from "@/lib/views/format";
import type { SubjectSummary } from "@/lib/views/overview";
import { previousLabel, type RangeKey } from "@/lib/views/ranges";

/** Totals per service or consumer group over the range; a row's name charts that subject. */
export function SubjectTable({
  kind,
  rows,
  range,
  selected,
  detailHref,
}: {
  kind: "service" | "group";
  rows: SubjectSummary[];
  range: RangeKey;
  selected: string | null;
  detailHref: (id: string) => string;
}) {
  if (rows.length === 0) {
    return (
      <EmptyState title={kind === "service" ? "No services yet." : "No consumer groups yet."}>
        {kind === "service" ? "Register one with PUT /api/v1/services/:id." : "Groups appear with their first claim."}
      </EmptyState>
    );
  }
  return (
    <div className="table-wrap">
      <table data-testid={`${kind}-totals`}>
        <thead>
          <tr>
            <th>{kind === "service" ? "Service" : "Consumer group"}</th>
            <th className="num">Checks</th>
            <th className="num">Duplicate rate</th>
            <th>vs {previousLabel(range).toLowerCase()}</th>
            {kind === "service" ? <th className="num">Changed rate</th> : null}
            <th className="num">Late redeliveries</th>
            <th className="num">Errors</th>
            <th>
              <span className="visually-hidden">Details</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => (
            <tr key={row.id} aria-selected={row.id === selected}>
              <td>
                <Link href={hrefWith("/", { range, kind, subject: row.id })}><VisibleText text={row.label} /></Link>{" "}
                {row.label !== row.id ? <code className="muted">{row.id}</code> : null}
              </td>
              <td className="num">{formatCount(row.checks)}</td>
              <td className="num">{formatPercent(row.duplicates, row.checks)}</td>
              <td>
                <RateChange now={row} before={row.previous} />
              </td>
              {kind === "service" ? <td className="num">{formatPercent(row.changed, row.checks)}</td> : null}
              <td className="num">{formatCount(row.lateRedeliveries)}</td>
              <td className="num">{formatCount(row.errors)}</td>
              <td>
                <Link href={detailHref(row.id)} className="small">
                  {kind === "service" ? "Keys" : "Window"} →
                </Link>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
