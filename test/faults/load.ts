import { bearer, sleep } from "./fixtures";
import type { ClaimOutput, HistoryRecorder } from "./history/history";
import { lastSeenKey, windowKey } from "./history/workload";
import type { NodeResponse, WeirNode } from "./weir-node";

/** One answered request of a load run. */
export interface Sample {
  kind: "check" | "claim";
  start: number;
  end: number;
  status: number;
  retryAfter: string | undefined;
  code: string | undefined;
  decided: boolean;
}

export interface LoadConfig {
  node: WeirNode;
  token: string;
  serviceId: string;
  group: string;
  messageIds: string[];
  clients: number;
  /** Keeps going while this is true. */
  running: () => boolean;
  recorder: HistoryRecorder;
  /** Pause after a 503 (weir says Retry-After: 1; tests poll faster to measure recovery). */
  pauseAfterErrorMs?: number;
  timeoutMs?: number;
}

/**
 * Steady traffic of checks and claims on a few keys, every request recorded
 * both as a sample (status, latency) and as an operation of a history that the
 * linearizability checker can verify afterwards: "no guessed answers" is then
 * a checked property, not a hope.
 */
export async function runLoad(config: LoadConfig, samples: Sample[] = []): Promise<Sample[]> {
  const headers = bearer(config.token);
  let client = 0;
  const pick = <T>(items: readonly T[]) => items[Math.floor(Math.random() * items.length)]!;

  async function one(id: number): Promise<Sample> {
    const messageId = pick(config.messageIds);
    const isCheck = Math.random() < 0.6;
    const variant = Math.floor(Math.random() * 2);
    const op = config.recorder.invoke(
      isCheck
        ? { client: id, node: config.node.name, keys: [lastSeenKey(messageId)], kind: "check", input: { payload: variant } }
        : { client: id, node: config.node.name, keys: [windowKey(config.group, messageId)], kind: "claim" },
    );
    const start = Date.now();
    const res: NodeResponse = isCheck
      ? await config.node.request("POST", "/api/v1/check", { serviceId: config.serviceId, messageId, payload: { variant } }, headers, config.timeoutMs)
      : await config.node.request("POST", "/api/v1/claim", { consumerGroup: config.group, messageId }, headers, config.timeoutMs);
    const end = Date.now();
    const decided = res.status === 200 && typeof res.body?.decision === "string";
    if (decided) {
      const output = isCheck
        ? { decision: res.body.decision, version: res.body.version }
        : ({
            decision: res.body.decision,
            ttlSeconds: res.body.ttlSeconds,
            ...(res.body.lateRedelivery ? { lateBySeconds: res.body.lateRedelivery.lateBySeconds } : {}),
          } satisfies ClaimOutput);
      config.recorder.ok(op, output, "200");
    } else if (res.status >= 400 && res.status < 500) {
      config.recorder.fail(op, String(res.status));
    } else {
      config.recorder.unknown(op, res.status === 0 ? `transport: ${res.body.error.message}` : String(res.status));
    }
    return {
      kind: isCheck ? "check" : "claim",
      start,
      end,
      status: res.status,
      retryAfter: res.headers["retry-after"] as string | undefined,
      code: res.body?.error?.code,
      decided,
    };
  }

  await Promise.all(
    Array.from({ length: config.clients }, async () => {
      let id = client++;
      while (config.running()) {
        const sample = await one(id);
        samples.push(sample);
        if (sample.status !== 200) {
          id = client++;
          await sleep(config.pauseAfterErrorMs ?? 20);
        }
      }
    }),
  );
  return samples;
}

/** Time from `since` to the first decided answer of a request that started after it. */
export function firstSuccessAfter(samples: Sample[], since: number): number | undefined {
  const after = samples.filter((s) => s.decided && s.start >= since).sort((a, b) => a.end - b.end)[0];
  return after === undefined ? undefined : after.end - since;
}
