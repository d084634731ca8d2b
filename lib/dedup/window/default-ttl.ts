import { MAX_WINDOW_SECONDS } from "@/lib/validation/limits";

export const FALLBACK_DEFAULT_TTL_SECONDS = 86_400;

let cached: { raw: string | undefined; value: number } | undefined;

/** TTL of a consumer group that has no settings row: `WEIR_DEFAULT_TTL_SECONDS`, else 24 h. */
export function defaultTtlSeconds(): number {
  const raw = process.env.WEIR_DEFAULT_TTL_SECONDS;
  if (cached && cached.raw === raw) return cached.value;
  let value = FALLBACK_DEFAULT_TTL_SECONDS;
  if (raw !== undefined && raw !== "") {
    value = Number(raw);
    if (!Number.isInteger(value) || value < 1 || value > MAX_WINDOW_SECONDS) {
      throw new Error(`WEIR_DEFAULT_TTL_SECONDS must be an integer between 1 and ${MAX_WINDOW_SECONDS}, got "${raw}"`);
    }
  }
  cached = { raw, value };
  return value;
}
