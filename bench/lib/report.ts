import { appendFileSync } from "node:fs";
import os from "node:os";

/** One line of a scenario's table: our figure against a baseline measured in the same run. */
export interface Row {
  metric: string;
  ours: number | string;
  baseline?: number | string;
  baselineName?: string;
  /** ours / baseline, or baseline / ours for "lower is better" figures; computed when both are numbers. */
  ratio?: number | string;
  target: string;
  /** Whether the target is met; undefined when the row has no pass/fail meaning. */
  met?: boolean;
  unit?: string;
}

export function fmt(n: number | string | undefined, digits = 1): string {
  if (n === undefined) return "-";
  if (typeof n === "string") return n;
  if (!Number.isFinite(n)) return String(n);
  if (Math.abs(n) >= 1000) return Math.round(n).toLocaleString("en-US");
  if (Math.abs(n) >= 100) return n.toFixed(0);
  return n.toFixed(digits);
}

export const ratio = (ours: number, baseline: number) => (baseline > 0 ? ours / baseline : Number.NaN);
export const ratioText = (r: number) => (Number.isFinite(r) ? `${r.toFixed(2)}x` : "-");

export function machineLine(): string {
  const cpus = os.cpus();
  return `node ${process.version}, ${cpus.length} x ${cpus[0]?.model.trim() ?? "cpu"}, ${Math.round(os.totalmem() / 2 ** 30)} GiB RAM, ${os.platform()} ${os.release()}`;
}

export function printTable(header: string[], rows: string[][]): void {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? "").length)));
  const line = (cells: string[]) => cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join("  ");
  console.log(line(header));
  console.log(widths.map((w) => "-".repeat(w)).join("  "));
  for (const row of rows) console.log(line(row));
}

/**
 * Prints a scenario's table (ours, baseline, ratio, target) and appends it to
 * $WEIR_BENCH_SUMMARY as JSON so run-all can print one summary. Never fails on timing.
 */
export function report(scenario: string, rows: Row[], notes: string[] = []): void {
  console.log(`\n== ${scenario}`);
  printTable(
    ["metric", "ours", "baseline", "ratio", "target", "met"],
    rows.map((r) => [
      r.metric + (r.unit ? ` (${r.unit})` : ""),
      fmt(r.ours),
      r.baseline === undefined ? "-" : `${fmt(r.baseline)}${r.baselineName ? ` ${r.baselineName}` : ""}`,
      typeof r.ratio === "number" ? ratioText(r.ratio) : (r.ratio ?? "-"),
      r.target,
      r.met === undefined ? "" : r.met ? "yes" : "NO",
    ]),
  );
  for (const note of notes) console.log(`  note: ${note}`);
  const file = process.env.WEIR_BENCH_SUMMARY;
  if (file) appendFileSync(file, JSON.stringify({ scenario, rows, notes }) + "\n");
}

export function percentile(sorted: ArrayLike<number>, p: number): number {
  if (sorted.length === 0) return Number.NaN;
  const index = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[index]!;
}

export function median(values: number[]): number {
  return percentile([...values].sort((a, b) => a - b), 50);
}
