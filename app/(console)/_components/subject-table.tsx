import Link from "next/link";
import { EmptyState } from "@/components/ui/empty-state";
import { formatCount } from "@/lib/views/format";
import { previousLabel } from "@/lib/views/ranges";
import { SubjectRows, type SubjectListProps } from "./subject-rows";
import { OVERVIEW_TOP_SUBJECTS, topSubjects } from "./top-subjects";

/** Where each kind's full list is, in the order the overview ranks by (most duplicates first where it can). */
const FULL_LIST = { service: { href: "/services?sort=duplicates", noun: "services" }, group: { href: "/groups", noun: "consumer groups" } } as const;

/**
 * Totals per service or consumer group over the range, the ones with the most duplicates first (at
 * most OVERVIEW_TOP_SUBJECTS, and the charted one); a row's name charts that subject.
 */
export function SubjectTable({ kind, rows, range, selected, detailBase }: SubjectListProps) {
  if (rows.length === 0) {
    return (
      <EmptyState title={kind === "service" ? "No services yet." : "No consumer groups yet."}>
        {kind === "service" ? "Register one with PUT /api/v1/services/:id." : "Groups appear with their first claim."}
      </EmptyState>
    );
  }
  const shown = topSubjects(rows, OVERVIEW_TOP_SUBJECTS, selected);
  const full = FULL_LIST[kind];
  return (
    <>
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
          <SubjectRows kind={kind} rows={shown} range={range} selected={selected} detailBase={detailBase} />
        </table>
      </div>
      {rows.length > OVERVIEW_TOP_SUBJECTS ? (
        <p className="small muted" data-testid={`${kind}-totals-more`}>
          The {OVERVIEW_TOP_SUBJECTS} {full.noun} with the most duplicates in this range
          {shown.length > OVERVIEW_TOP_SUBJECTS ? ", and the one charted above" : ""}, of {formatCount(rows.length)}.{" "}
          <Link href={full.href}>
            All {formatCount(rows.length)} {full.noun} →
          </Link>
        </p>
      ) : null}
    </>
  );
}
