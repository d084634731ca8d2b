export const RANGES = {
  "1h": { label: "Last hour", seconds: 3_600, stepSeconds: 60 },
  "24h": { label: "Last 24 h", seconds: 86_400, stepSeconds: 900 },
  "7d": { label: "Last 7 days", seconds: 604_800, stepSeconds: 3_600 },
  "30d": { label: "Last 30 days", seconds: 2_592_000, stepSeconds: 21_600 },
} as const;

export type RangeKey = keyof typeof RANGES;

/** "Previous 24 h": the range before this one, which the charts and lists compare with. */
export const previousLabel = (key: RangeKey) => RANGES[key].label.replace(/^Last/, "Previous");

export const parseRange = (value: unknown): RangeKey =>
  typeof value === "string" && Object.hasOwn(RANGES, value) ? (value as RangeKey) : "24h";

export interface RangeWindow {
  key: RangeKey;
  stepSeconds: number;
  /** Start of the first bucket; buckets are aligned to UTC (date_bin origin 2000-01-01). */
  since: Date;
  /** Start of the current, still open bucket. */
  lastBucket: Date;
}

export function rangeWindow(key: RangeKey, now = Date.now()): RangeWindow {
  const { seconds, stepSeconds } = RANGES[key];
  const step = stepSeconds * 1000;
  const lastBucket = Math.floor(now / step) * step;
  return {
    key,
    stepSeconds,
    since: new Date(lastBucket - seconds * 1000 + step),
    lastBucket: new Date(lastBucket),
  };
}
