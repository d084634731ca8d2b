import { bearer, sleep } from "../fixtures";
import type { NodeResponse, WeirNode } from "../weir-node";
import type { ClaimOutput, HistoryRecorder, Operation } from "./history";

/** Largest grace period: cleanup never removes a record while the history runs. */
const GRACE_SECONDS = 31_536_000;

export interface WorkloadConfig {
  nodes: WeirNode[];
  token: string;
  serviceId: string;
  /** Message ids of the last-seen keys. */
  messageIds: string[];
  /** Structurally different payloads per key. */
  variants: number;
  groups: { id: string; messageIds: string[]; ttlChoices: number[] }[];
  clients: number;
  durationMs: number;
  recorder: HistoryRecorder;
  /** Ends the run early (its clients finish the request they are in): durationMs is then a cap. */
  stop?: AbortSignal;
  /** Checks, claims and reads only: no resets or TTL changes (the console's writes). */
  decisionsOnly?: boolean;
}

export interface WorkloadStats {
  requests: number;
  byStatus: Record<string, number>;
  /** Answers that break a rule outside the model: a 503 without Retry-After, a decision in an error, a hash that differs for one payload. */
  anomalies: string[];
  /** The most requests in a row one client saw end without an answer (5xx, dropped): 1 when a retry always succeeded. */
  longestFailureRun: number;
}

export const lastSeenKey = (messageId: string) => `ls:${messageId}`;
export const windowKey = (group: string, messageId: string) => `win:${group}/${messageId}`;

const pick = <T>(items: readonly T[]): T => items[Math.floor(Math.random() * items.length)]!;
const some = <T>(items: readonly T[], n: number): T[] => [...items].sort(() => Math.random() - 0.5).slice(0, n);

/** The same structure in one of two field orders, with an ignored timestamp that always differs. */
function payloadText(variant: number): string {
  const meta = { sentAt: new Date().toISOString(), source: "faults" };
  return Math.random() < 0.5
    ? JSON.stringify({ variant, lines: [variant, "x"], meta })
    : JSON.stringify({ meta: { source: "faults", sentAt: meta.sentAt }, lines: [variant, "x"], variant });
}

type Verdict = "ok" | "fail" | "unknown";

/**
 * A 2xx answer is a known outcome; a 4xx a refusal that changed nothing; a
 * 503, a 500 or a dropped connection says nothing about whether the database
 * applied the operation.
 */
function verdictOf(res: NodeResponse): Verdict {
  if (res.status >= 200 && res.status < 300) return "ok";
  if (res.status >= 400 && res.status < 500) return "fail";
  return "unknown";
}

export async function runWorkload(config: WorkloadConfig): Promise<WorkloadStats> {
  const { recorder } = config;
  const stats: WorkloadStats = { requests: 0, byStatus: {}, anomalies: [], longestFailureRun: 0 };
  const hashes = new Map<number, string>();
  // Reads name a hash; which variant it belongs to is settled once every check has answered.
  const reads: { op: Operation; hash: string; messageId: string }[] = [];
  const headers = bearer(config.token);
  const deadline = Date.now() + config.durationMs;
  const running = () => Date.now() < deadline && !config.stop?.aborted;
  let nextClient = 0;

  function note(res: NodeResponse, what: string): string {
    stats.requests++;
    const label = res.status === 0 ? "transport" : String(res.status);
    stats.byStatus[label] = (stats.byStatus[label] ?? 0) + 1;
    if (res.status === 503 && res.headers["retry-after"] === undefined) stats.anomalies.push(`${what}: 503 without Retry-After`);
    if (res.status >= 400 && res.body && typeof res.body === "object" && ("decision" in res.body || "results" in res.body)) {
      stats.anomalies.push(`${what}: a decision inside an error answer: ${JSON.stringify(res.body)}`);
    }
    if (res.status === 401 || res.status === 403 || res.status === 500) {
      stats.anomalies.push(`${what}: ${res.status} ${JSON.stringify(res.body)}`);
    }
    return res.status === 0 ? `transport: ${res.body.error.message}` : `${res.status}${res.status >= 400 ? ` ${res.body?.error?.code ?? ""}` : ""}`;
  }

  function sameHash(variant: number, hash: string): void {
    const known = hashes.get(variant);
    if (known === undefined) {
      for (const [other, h] of hashes) if (h === hash) stats.anomalies.push(`variants ${other} and ${variant} hash alike`);
      hashes.set(variant, hash);
    } else if (known !== hash) stats.anomalies.push(`variant ${variant} hashed as ${known} and ${hash}`);
  }

  function settle(ops: Operation[], verdict: Verdict, why: string, outputs?: (Operation["output"] | undefined)[]): Verdict {
    ops.forEach((op, i) => {
      if (verdict === "ok") recorder.ok(op, outputs![i], why);
      else if (verdict === "fail") recorder.fail(op, why);
      else recorder.unknown(op, why);
    });
    return verdict;
  }

  async function checks(client: number, node: WeirNode, messageIds: string[]): Promise<Verdict> {
    const variants = messageIds.map(() => Math.floor(Math.random() * config.variants));
    const ops = messageIds.map((m, i) =>
      recorder.invoke({ client, node: node.name, keys: [lastSeenKey(m)], kind: "check", input: { payload: variants[i]! } }),
    );
    const items = messageIds.map((m, i) => `{"serviceId":${JSON.stringify(config.serviceId)},"messageId":${JSON.stringify(m)},"payload":${payloadText(variants[i]!)}}`);
    const single = items.length === 1;
    const res = await node.request("POST", single ? "/api/v1/check" : "/api/v1/check/batch", single ? items[0] : `{"items":[${items.join(",")}]}`, headers);
    const why = note(res, single ? "check" : "check batch");
    const verdict = verdictOf(res);
    if (verdict !== "ok") return settle(ops, verdict, why);
    const results: { decision: "new" | "changed" | "duplicate"; version: number; hash: string }[] = single ? [res.body] : res.body.results;
    results.forEach((r, i) => sameHash(variants[i]!, r.hash));
    return settle(ops, "ok", why, results.map((r) => ({ decision: r.decision, version: r.version })));
  }

  async function read(client: number, node: WeirNode, messageId: string): Promise<Verdict> {
    const op = recorder.invoke({ client, node: node.name, keys: [lastSeenKey(messageId)], kind: "read" });
    const res = await node.request("GET", `/api/v1/services/${config.serviceId}/keys/${encodeURIComponent(messageId)}`, undefined, headers);
    const why = note(res, "read");
    if (res.status === 404 && res.body?.error?.field === "messageId") return settle([op], "ok", why, [{ version: 0, payload: -1 }]);
    const verdict = verdictOf(res);
    if (verdict !== "ok") return settle([op], verdict, why);
    reads.push({ op, hash: res.body.state.hash, messageId });
    return settle([op], "ok", why, [{ version: res.body.state.version, payload: -2 }]);
  }

  async function claims(client: number, node: WeirNode, group: string, messageIds: string[]): Promise<Verdict> {
    const ops = messageIds.map((m) => recorder.invoke({ client, node: node.name, keys: [windowKey(group, m)], kind: "claim" }));
    const single = messageIds.length === 1;
    const body = single
      ? { consumerGroup: group, messageId: messageIds[0] }
      : { items: messageIds.map((messageId) => ({ consumerGroup: group, messageId })) };
    const res = await node.request("POST", single ? "/api/v1/claim" : "/api/v1/claim/batch", body, headers);
    const why = note(res, single ? "claim" : "claim batch");
    const verdict = verdictOf(res);
    if (verdict !== "ok") return settle(ops, verdict, why);
    const results: { decision: "new" | "duplicate"; ttlSeconds: number; lateRedelivery?: { lateBySeconds: number } }[] = single
      ? [res.body]
      : res.body.results;
    const outputs: ClaimOutput[] = results.map((r) => ({
      decision: r.decision,
      ttlSeconds: r.ttlSeconds,
      ...(r.lateRedelivery ? { lateBySeconds: r.lateRedelivery.lateBySeconds } : {}),
    }));
    return settle(ops, "ok", why, outputs);
  }

  async function reset(client: number, node: WeirNode, key: { kind: "last_seen" | "window"; subject: string; messageId: string }): Promise<Verdict> {
    const objectKey = key.kind === "last_seen" ? lastSeenKey(key.messageId) : windowKey(key.subject, key.messageId);
    const op = recorder.invoke({ client, node: node.name, keys: [objectKey], kind: "reset" });
    const res = await node.request("POST", "/faults/reset", key);
    const why = note(res, "reset");
    const verdict = verdictOf(res);
    return settle([op], verdict, why, [{ deleted: res.body?.deleted === true }]);
  }

  async function changeTtl(client: number, node: WeirNode, group: (typeof config.groups)[number]): Promise<Verdict> {
    const ttlSeconds = pick(group.ttlChoices);
    const op = recorder.invoke({
      client,
      node: node.name,
      keys: group.messageIds.map((m) => windowKey(group.id, m)),
      kind: "ttl",
      input: { ttlSeconds },
    });
    const res = await node.request("PUT", `/api/v1/consumer-groups/${group.id}`, { ttlSeconds, graceSeconds: GRACE_SECONDS, reason: "history" }, headers);
    const why = note(res, "ttl");
    const verdict = verdictOf(res);
    if (verdict === "ok" && res.body.group.ttlSeconds !== ttlSeconds) stats.anomalies.push(`ttl change answered ${JSON.stringify(res.body.group)}`);
    return settle([op], verdict, why, [undefined]);
  }

  async function oneOperation(client: number, node: WeirNode): Promise<Verdict> {
    const roll = Math.random();
    if (roll < 0.34) return checks(client, node, [pick(config.messageIds)]);
    if (roll < 0.42) return checks(client, node, some(config.messageIds, 2 + Math.floor(Math.random() * 2)));
    if (roll < 0.47) return read(client, node, pick(config.messageIds));
    const group = pick(config.groups);
    if (roll < 0.75) return claims(client, node, group.id, [pick(group.messageIds)]);
    if (roll < 0.83) return claims(client, node, group.id, some(group.messageIds, 2));
    if (config.decisionsOnly) return checks(client, node, [pick(config.messageIds)]);
    if (roll < 0.89) return reset(client, node, { kind: "last_seen", subject: config.serviceId, messageId: pick(config.messageIds) });
    if (roll < 0.95) return reset(client, node, { kind: "window", subject: group.id, messageId: pick(group.messageIds) });
    return changeTtl(client, node, group);
  }

  /** After an unknown outcome the client is replaced by a new one, once its node answers again. */
  async function clientLoop(): Promise<void> {
    let client = nextClient++;
    let failures = 0;
    while (running()) {
      const node = pick(config.nodes);
      const verdict = await oneOperation(client, node);
      failures = verdict === "unknown" ? failures + 1 : 0;
      stats.longestFailureRun = Math.max(stats.longestFailureRun, failures);
      if (verdict === "unknown") {
        client = nextClient++;
        while (running() && (await node.request("GET", "/api/health", undefined, {}, 2000)).status !== 200) await sleep(100);
      }
    }
  }

  await Promise.all(Array.from({ length: config.clients }, () => clientLoop()));
  for (const { op, hash, messageId } of reads) {
    const variant = [...hashes].find(([, h]) => h === hash)?.[0];
    if (variant === undefined) stats.anomalies.push(`read ${messageId}: a hash no check answered: ${hash}`);
    else (op.output as { payload: number }).payload = variant;
  }
  return stats;
}
