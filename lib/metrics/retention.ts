import type { RetentionResult } from "@/lib/erase/retention";
import { metrics } from "./registry";

/** Counts what a retention pass removed and how long it ran. */
export function observeRetentionPass(result: RetentionResult): void {
  metrics.retentionRemoved.inc({ kind: "payload_version" }, result.payloadVersionsRemoved);
  metrics.retentionRemoved.inc({ kind: "stored_response" }, result.responsesRemoved);
  metrics.retentionRemoved.inc({ kind: "stats_minute" }, result.statsMinutesRemoved);
  metrics.retentionPassSeconds.observe({ result: result.complete ? "complete" : "partial" }, result.durationMs / 1000);
}
