/** Formatting shared by server and client components. Times: lib/views/time-zone.ts, in the zone the viewer chose. */
export { formatBucket, formatInstant, toInputInstant } from "./time-zone";

const counts = new Intl.NumberFormat("en-US");

export const formatCount = (value: number) => counts.format(value);

export function formatPercent(part: number, whole: number): string {
  return whole === 0 ? "–" : `${((100 * part) / whole).toFixed(1)} %`;
}

const UNITS: [number, string][] = [
  [86_400, "d"],
  [3_600, "h"],
  [60, "min"],
  [1, "s"],
];

/** 90061 -> "1 d 1 h 1 min 1 s"; at most the two largest units. */
export function formatDuration(totalSeconds: number): string {
  if (totalSeconds < 1) return `${Math.round(totalSeconds * 1000)} ms`;
  const parts: string[] = [];
  let rest = Math.round(totalSeconds);
  for (const [size, unit] of UNITS) {
    if (rest >= size && parts.length < 2) {
      parts.push(`${Math.floor(rest / size)} ${unit}`);
      rest %= size;
    }
  }
  return parts.join(" ");
}

/** "just now", "5 min ago", "in 2 h": the largest unit only, for times next to their absolute form. */
export function formatRelative(t: number, now: number): string {
  const seconds = Math.round((now - t) / 1000);
  const size = Math.abs(seconds);
  if (size < 5) return "just now";
  const [step, name] = UNITS.find(([span]) => size >= span) ?? [1, "s"];
  const text = `${Math.floor(size / step)} ${name}`;
  return seconds >= 0 ? `${text} ago` : `in ${text}`;
}
