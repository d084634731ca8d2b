import { onDecision, type DecisionEvent } from "@/lib/telemetry/decisions";
import { SubjectLabels } from "./labels";
import { metrics } from "./registry";

const services = new SubjectLabels();
const groups = new SubjectLabels();
const scopes = new SubjectLabels();

/**
 * The Prometheus reading of a decision event. Errors are not decisions here: they are
 * counted by route and code (weir_request_errors_total, weir_store_errors_total).
 */
export function countDecision(event: DecisionEvent): void {
  if (event.decision === "error") return;
  switch (event.mode) {
    case "last_seen":
      return metrics.pending.checks.add(services.label(event.subject), event.decision);
    case "window": {
      const group = groups.label(event.subject);
      metrics.pending.claims.add(group, event.decision);
      if (event.lateBySeconds === undefined) return;
      metrics.lateRedeliveries.inc({ consumer_group: group });
      return metrics.lateness.observe({ consumer_group: group }, Math.max(0, event.lateBySeconds));
    }
    case "idempotency":
      return metrics.pending.begins.add(scopes.label(event.subject), event.decision);
    case "idempotency_release":
      return metrics.idempotencyReleases.inc({ scope: scopes.label(event.subject), released: String(event.decision === "released") });
  }
}

onDecision("prometheus", countDecision);
