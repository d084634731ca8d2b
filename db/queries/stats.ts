import { sql } from "drizzle-orm";
import type { DbOrTx } from "../types";

export interface SubjectTotals {
  subject: string;
  checks: number;
  new: number;
  changed: number;
  duplicates: number;
  errors: number;
  lateRedeliveries: number;
}

/** Totals per subject of one kind since `since`, from the per-minute rollup. */
export async function totalsSince(db: DbOrTx, kind: string, since: Date): Promise<SubjectTotals[]> {
  const result = await db.execute<Record<string, unknown>>(sql`
    select subject, sum(checks)::float8 as checks, sum(new)::float8 as new, sum(changed)::float8 as changed,
           sum(duplicates)::float8 as duplicates, sum(errors)::float8 as errors,
           sum(late_redeliveries)::float8 as late_redeliveries
    from stats_minute
    where subject_kind = ${kind} and bucket >= ${since.toISOString()}::timestamptz
    group by subject
    order by subject`);
  return (result.rows as Record<string, unknown>[]).map((row) => ({
    subject: String(row.subject),
    checks: Number(row.checks),
    new: Number(row.new),
    changed: Number(row.changed),
    duplicates: Number(row.duplicates),
    errors: Number(row.errors),
    lateRedeliveries: Number(row.late_redeliveries),
  }));
}
