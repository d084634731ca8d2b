import { setting } from "@/lib/config";

/** How long a reset can be undone: `WEIR_RESET_RETENTION_DAYS`, else 7 days. */
export function resetRetentionDays(): number {
  return setting("WEIR_RESET_RETENTION_DAYS");
}
