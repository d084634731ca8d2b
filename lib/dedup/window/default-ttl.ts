import { setting } from "@/lib/config";

/** TTL of a consumer group that has no settings row: `WEIR_DEFAULT_TTL_SECONDS`, else 24 h. */
export function defaultTtlSeconds(): number {
  return setting("WEIR_DEFAULT_TTL_SECONDS");
}
