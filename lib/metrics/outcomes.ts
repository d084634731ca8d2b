import { ZodError } from "zod";
import { isStoreUnavailable } from "@/db/unavailable";
import { CanonicalJsonError } from "@/lib/dedup/canonical/errors";
import { WeirError } from "@/lib/errors";
import { SubjectLabels } from "./labels";
import { metrics } from "./registry";

export type DecisionMode = "last_seen" | "window" | "idempotency";

const services = new SubjectLabels();
const groups = new SubjectLabels();
const scopes = new SubjectLabels();

type Tally = Map<string, { subject: string; outcome: string; count: number }>;

function tally(into: Tally, subject: string, outcome: string): void {
  const key = `${subject}\u0000${outcome}`;
  const found = into.get(key);
  if (found) found.count++;
  else into.set(key, { subject, outcome, count: 1 });
}

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null;

/** A single decision body, or the `results` of a batch one. */
function decisionsOf(body: unknown): Record<string, unknown>[] {
  if (!isRecord(body)) return [];
  const list = Array.isArray(body.results) ? body.results : [body];
  return list.filter(isRecord);
}

export function countChecks(body: unknown): void {
  // A single check (the hot path) needs no tally.
  if (isRecord(body) && !("results" in body)) {
    if (typeof body.serviceId === "string" && typeof body.decision === "string") {
      metrics.checks.inc({ service: services.label(body.serviceId), outcome: body.decision });
    }
    return;
  }
  const counts: Tally = new Map();
  for (const item of decisionsOf(body)) {
    if (typeof item.serviceId === "string" && typeof item.decision === "string") tally(counts, item.serviceId, item.decision);
  }
  for (const { subject, outcome, count } of counts.values()) {
    metrics.checks.inc({ service: services.label(subject), outcome }, count);
  }
}

export function countClaims(body: unknown): void {
  const counts: Tally = new Map();
  for (const item of decisionsOf(body)) {
    if (typeof item.consumerGroup !== "string" || typeof item.decision !== "string") continue;
    tally(counts, item.consumerGroup, item.decision);
    const late = item.lateRedelivery;
    if (isRecord(late) && typeof late.lateBySeconds === "number") {
      const group = groups.label(item.consumerGroup);
      metrics.lateRedeliveries.inc({ consumer_group: group });
      metrics.lateness.observe({ consumer_group: group }, Math.max(0, late.lateBySeconds));
    }
  }
  for (const { subject, outcome, count } of counts.values()) {
    metrics.claims.inc({ consumer_group: groups.label(subject), outcome }, count);
  }
}

export function countBegin(scope: string, outcome: string): void {
  metrics.idempotencyBegins.inc({ scope: scopes.label(scope), outcome });
}

export function countRelease(scope: string, released: boolean): void {
  metrics.idempotencyReleases.inc({ scope: scopes.label(scope), released: String(released) });
}

/** The status and code an error will be answered with (the same mapping as lib/http/respond.ts). */
export function classifyError(err: unknown): { status: number; code: string } {
  if (err instanceof ZodError) return { status: 400, code: "invalid_request" };
  if (err instanceof CanonicalJsonError) return { status: 400, code: err.code };
  if (isStoreUnavailable(err)) return { status: 503, code: "store_unavailable" };
  if (err instanceof WeirError) return { status: err.status, code: err.code };
  return { status: 500, code: "internal" };
}

export function countStoreError(source: string): void {
  metrics.storeErrors.inc({ source });
}
