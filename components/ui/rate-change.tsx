import { formatPercent } from "@/lib/views/format";

/**
 * A duplicate rate now against the previous period's, in words: "up 4.2 pts (was 3.1 %)". Points of
 * percentage, not a ratio of rates: from 1 % to 2 % is "up 1.0 pts", never "+100 %".
 */
export function RateChange({ now, before }: { now: { checks: number; duplicates: number }; before: { checks: number; duplicates: number } }) {
  if (before.checks === 0) return <span className="muted">{now.checks === 0 ? "–" : "no traffic before"}</span>;
  const was = `was ${formatPercent(before.duplicates, before.checks)}`;
  if (now.checks === 0) return <span className="muted">no traffic now ({was})</span>;
  const points = (100 * now.duplicates) / now.checks - (100 * before.duplicates) / before.checks;
  if (Math.abs(points) < 0.05) return <span className="muted">same ({was})</span>;
  const up = points > 0;
  return (
    <span className={up ? "rate-up" : "rate-down"}>
      <span aria-hidden="true">{up ? "↑" : "↓"} </span>
      {up ? "up" : "down"} {Math.abs(points).toFixed(1)} pts <span className="muted">({was})</span>
    </span>
  );
}
