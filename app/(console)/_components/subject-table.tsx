import { EmptyState } from "@/components/ui/empty-state";
import { previousLabel } from "@/lib/views/ranges";
import { SubjectRows, type SubjectListProps } from "./subject-rows";

/** Totals per service or consumer group over the range; a row's name charts that subject. */
export function SubjectTable({ kind, rows, range, selected, detailBase }: SubjectListProps) {
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
        <SubjectRows kind={kind} rows={rows} range={range} selected={selected} detailBase={detailBase} />
      </table>
    </div>
  );
}
