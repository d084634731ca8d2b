import { describe, expect, it } from "vitest";
import { countDecision, metrics } from "@/lib/metrics";
import { StatsRecorder, recordDecision } from "@/lib/stats/recorder";
import { decided, onDecision, type DecisionEvent } from "./decisions";

const countOf = async (labels: { service: string; outcome: string }) =>
  (await metrics.checks.get()).values.find((v) => v.labels.service === labels.service && v.labels.outcome === labels.outcome)?.value ?? 0;

describe("decision telemetry", () => {
  it("hands each event once to every subscriber, a name subscribed twice counting once", () => {
    const seen: string[] = [];
    const stopA = onDecision("test-a", (e) => seen.push(`a:${e.decision}`));
    onDecision("test-b", (e) => seen.push(`stale:${e.decision}`));
    const stopB = onDecision("test-b", (e) => seen.push(`b:${e.decision}`));
    const failing = onDecision("test-failing", () => {
      throw new Error("a broken subscriber");
    });
    try {
      decided({ mode: "last_seen", subject: "svc", decision: "new" });
    } finally {
      stopA();
      stopB();
      failing();
    }
    decided({ mode: "last_seen", subject: "svc", decision: "duplicate" });
    expect(seen).toEqual(["a:new", "b:new"]);
  });

  it("is read the same way by the stats rollup and by Prometheus", async () => {
    const recorder = new StatsRecorder();
    const events: DecisionEvent[] = [
      { mode: "last_seen", subject: "telemetry-svc", decision: "new" },
      { mode: "last_seen", subject: "telemetry-svc", decision: "duplicate" },
      { mode: "last_seen", subject: "telemetry-svc", decision: "error" },
      { mode: "window", subject: "telemetry-grp", decision: "new", lateBySeconds: 3 },
      { mode: "idempotency", subject: "telemetry-scope", decision: "mismatch" },
    ];
    const before = await countOf({ service: "telemetry-svc", outcome: "duplicate" });
    for (const event of events) {
      recordDecision(event, recorder);
      countDecision(event);
    }
    const pending = (recorder as unknown as { pending: Map<string, Record<string, number>> }).pending;
    const bySubject = new Map([...pending].map(([key, counters]) => [key.split("\u0000")[1], counters]));
    expect(bySubject.get("telemetry-svc")).toEqual({ checks: 3, new: 1, changed: 0, duplicates: 1, errors: 1, late: 0 });
    expect(bySubject.get("telemetry-grp")).toEqual({ checks: 1, new: 1, changed: 0, duplicates: 0, errors: 0, late: 1 });
    expect(bySubject.get("telemetry-scope")).toMatchObject({ checks: 1, changed: 1 });
    expect(await countOf({ service: "telemetry-svc", outcome: "duplicate" })).toBe(before + 1);
    expect(await countOf({ service: "telemetry-svc", outcome: "error" })).toBe(0);
  });
});
