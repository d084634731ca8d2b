export interface SweepPoint {
  /** Offered load as a share of the measured capacity (1 = capacity). */
  share: number;
  offered: number;
  achieved: number;
  /** Milliseconds, over every answer. */
  p50: number;
  p99: number;
  /** Share of answers that were 503 (shed), 0..1. */
  shed: number;
  /** Measured right after the heaviest point: how the service recovers. */
  recovery?: boolean;
}

const W = 760;
const H = 490;
const PLOT = { left: 70, right: 690, top: 100, bottom: 380 };
const escape = (text: string) => text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");

/** One server's sweep on the chart: solid lines, or dashed for a comparison. */
export interface SweepSeries {
  name: string;
  points: SweepPoint[];
  dashed?: boolean;
}

/**
 * Latency (p50, p99, log scale) and the share of 503s against offered load, as a standalone SVG:
 * one pair of lines per series, and side by side bars for their 503 shares.
 */
export function latencyVsLoadSvg(series: SweepSeries[], title: string, subtitle: string[]): string {
  const points = series.flatMap((s) => s.points);
  const maxShare = Math.max(1.5, ...points.map((p) => p.share));
  const x = (share: number) => PLOT.left + (share / maxShare) * (PLOT.right - PLOT.left);
  const latencies = points.flatMap((p) => [p.p50, p.p99]).filter((v) => Number.isFinite(v) && v > 0);
  const lo = Math.pow(10, Math.floor(Math.log10(Math.min(...latencies, 1))));
  const hi = Math.pow(10, Math.ceil(Math.log10(Math.max(...latencies, 10))));
  const y = (ms: number) => PLOT.bottom - ((Math.log10(Math.max(ms, lo)) - Math.log10(lo)) / (Math.log10(hi) - Math.log10(lo))) * (PLOT.bottom - PLOT.top);
  const yShare = (share: number) => PLOT.bottom - share * (PLOT.bottom - PLOT.top);
  const parts: string[] = [];
  for (let decade = lo; decade <= hi; decade *= 10) {
    parts.push(`<line x1="${PLOT.left}" x2="${PLOT.right}" y1="${y(decade)}" y2="${y(decade)}" stroke="#ddd"/>`);
    parts.push(`<text x="${PLOT.left - 8}" y="${y(decade) + 4}" text-anchor="end">${decade >= 1 ? decade : decade.toFixed(-Math.log10(decade))} ms</text>`);
  }
  for (let share = 0; share <= maxShare + 1e-9; share += 0.25) {
    parts.push(`<line x1="${x(share)}" x2="${x(share)}" y1="${PLOT.top}" y2="${PLOT.bottom}" stroke="#eee"/>`);
    parts.push(`<text x="${x(share)}" y="${PLOT.bottom + 18}" text-anchor="middle">${Math.round(share * 100)} %</text>`);
  }
  for (const share of [0, 0.5, 1]) parts.push(`<text x="${PLOT.right + 8}" y="${yShare(share) + 4}">${share * 100} %</text>`);
  const barWidth = 8;
  series.forEach((s, i) => {
    for (const p of s.points.filter((p) => p.shed > 0)) {
      const left = x(p.share) + (i - series.length / 2) * barWidth + (p.recovery ? series.length * barWidth : 0);
      parts.push(`<rect x="${left}" y="${yShare(p.shed)}" width="${barWidth}" height="${PLOT.bottom - yShare(p.shed)}" fill="#f4a261" opacity="${s.dashed ? 0.4 : 0.8}"/>`);
    }
    const sweep = s.points.filter((p) => !p.recovery);
    const dash = s.dashed ? ' stroke-dasharray="6 4"' : "";
    const line = (pick: (p: SweepPoint) => number, color: string) =>
      `<polyline fill="none" stroke="${color}" stroke-width="2"${dash} points="${sweep.map((p) => `${x(p.share).toFixed(1)},${y(pick(p)).toFixed(1)}`).join(" ")}"/>` +
      sweep.map((p) => `<circle cx="${x(p.share).toFixed(1)}" cy="${y(pick(p)).toFixed(1)}" r="3" fill="${s.dashed ? "white" : color}" stroke="${color}"/>`).join("");
    parts.push(line((p) => p.p50, "#2a6fdb"), line((p) => p.p99, "#d62828"));
    for (const p of s.points.filter((p) => p.recovery)) {
      for (const [ms, color] of [[p.p99, "#d62828"], [p.p50, "#2a6fdb"]] as const) {
        parts.push(`<rect x="${x(p.share) - 4}" y="${y(ms) - 4}" width="8" height="8" fill="none" stroke="${color}" stroke-width="2"${dash}/>`);
      }
    }
  });
  const legend = [
    ["#2a6fdb", "p50 latency"],
    ["#d62828", "p99 latency"],
    ["#f4a261", "share of 503 (right axis)"],
  ]
    .map(([color, label], i) => `<rect x="${PLOT.left + i * 190}" y="${H - 40}" width="12" height="12" fill="${color}"/><text x="${PLOT.left + i * 190 + 18}" y="${H - 30}">${label}</text>`)
    .join("");
  const kinds = series.map((s) => `${s.dashed ? "dashed" : "solid"}: ${s.name}`).join("; ");
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}" viewBox="0 0 ${W} ${H}" font-family="sans-serif" font-size="12">
<rect width="${W}" height="${H}" fill="white"/>
<text x="${PLOT.left}" y="24" font-size="15" font-weight="bold">${escape(title)}</text>
${subtitle.map((line, i) => `<text x="${PLOT.left}" y="${44 + i * 16}" fill="#555">${escape(line)}</text>`).join("\n")}
<rect x="${PLOT.left}" y="${PLOT.top}" width="${PLOT.right - PLOT.left}" height="${PLOT.bottom - PLOT.top}" fill="none" stroke="#999"/>
${parts.join("\n")}
<text x="${(PLOT.left + PLOT.right) / 2}" y="${PLOT.bottom + 36}" text-anchor="middle">offered load, share of measured capacity (squares: right after the heaviest point)</text>
${legend}
<text x="${PLOT.left}" y="${H - 10}">${escape(kinds)}</text>
</svg>
`;
}
