"use client";
import Link from "next/link";
import { Sparkline } from "@/components/charts/sparkline";
import { RateChange } from "@/components/ui/rate-change";
import { RelativeTime } from "@/components/ui/relative-time";
import { VisibleText } from "@/components/ui/visible-text";
import { formatCount, formatPercent } from "@/lib/views/format";
import type { ServiceListItem } from "@/lib/views/services";

/** One row of the services list as the page sends it: the figures it shows, the sparkline already drawn. */
export type ServiceRow = Pick<ServiceListItem, "id" | "displayName" | "keys" | "keysExact" | "lastActivity" | "checks24h" | "duplicates24h" | "previous24h" | "historyDepth"> & {
  /** sparklineSegments() of the duplicate rate per hour. */
  spark: string[];
  sparkLabel: string;
};

/**
 * The rows of the services list. A client component on purpose: the page's RSC payload then carries
 * each service's figures (about 400 bytes) instead of every cell's element tree (about 1,800), which
 * the server serialised, parsed back and rendered per request: at 100 services that was most of the
 * page's CPU (docs/performance-console.md).
 */
export function ServiceRows({ rows }: { rows: ServiceRow[] }) {
  return (
    <tbody>
      {rows.map((s) => (
        <tr key={s.id}>
          <td>
            <Link href={`/services/${s.id}`}>
              <VisibleText text={s.displayName} />
            </Link>{" "}
            <code className="muted">{s.id}</code>
          </td>
          <td className="num" data-testid="key-count">
            {s.keysExact ? (
              formatCount(s.keys)
            ) : (
              <abbr title="An estimate from the database's statistics or a sample of the table: counting every key would cost too much">≈ {formatCount(s.keys)}</abbr>
            )}
          </td>
          <td>{s.lastActivity ? <RelativeTime value={s.lastActivity} /> : <span className="muted">none in the stats</span>}</td>
          <td className="num">{formatCount(s.checks24h)}</td>
          <td className="num">{formatPercent(s.duplicates24h, s.checks24h)}</td>
          <td>
            <RateChange now={{ checks: s.checks24h, duplicates: s.duplicates24h }} before={s.previous24h} />
          </td>
          <td>
            <Sparkline segments={s.spark} label={s.sparkLabel} />
          </td>
          <td className="num">{s.historyDepth === 0 ? "hashes only" : s.historyDepth}</td>
        </tr>
      ))}
    </tbody>
  );
}
