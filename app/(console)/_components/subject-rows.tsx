"use client";
import Link from "next/link";
import { VisibleText } from "@/components/ui/visible-text";
import { RateChange } from "@/components/ui/rate-change";
import { hrefWith } from "@/components/ui/pager";
import { formatCount, formatPercent } from "@/lib/views/format";
import type { SubjectSummary } from "@/lib/views/overview";
import type { RangeKey } from "@/lib/views/ranges";

/**
 * The rows of the overview's subject tables. A client component on purpose: it receives the rows as
 * plain numbers, so the page's RSC payload carries about 150 bytes per subject instead of every
 * cell's element tree (about 900 bytes), which the server serialised, parsed back and rendered per
 * request: at 100+ services that was most of the page's CPU (docs/performance-console.md).
 */
export interface SubjectListProps {
  kind: "service" | "group";
  rows: SubjectSummary[];
  range: RangeKey;
  selected: string | null;
  /** The detail page of a row is `${detailBase}${id}`. */
  detailBase: string;
}

export function SubjectRows({ kind, rows, range, selected, detailBase }: SubjectListProps) {
  return (
    <tbody>
      {rows.map((row) => (
        <tr key={row.id} aria-selected={row.id === selected}>
          <td>
            <Link href={hrefWith("/", { range, kind, subject: row.id })}>
              <VisibleText text={row.label} />
            </Link>{" "}
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
            <Link href={`${detailBase}${row.id}`} className="small">
              {kind === "service" ? "Keys" : "Window"} →
            </Link>
          </td>
        </tr>
      ))}
    </tbody>
  );
}
