/**
 * One token flooding a weir node, run as a child process of its own so that its event loop is
 * not the measuring one: stalled bodies, waiting begins and checks, each kind kept at its count
 * for as long as it runs. Every answer is re-sent at once, or after its Retry-After with the
 * jitter weir's own client adds (up to a quarter more), or at once by a hostile plan; a stalled body's connection is dropped and
 * opened again. Says "established" once every loop but `holding` (those let in to hold a slot)
 * had its first answer; reports the statuses it got (by kind) when it receives "stop".
 */
import http from "node:http";

export interface FloodPlan {
  url: string;
  token: string;
  serviceId: string;
  scope: string;
  stalledBodies: number;
  waitingBegins: number;
  checks: number;
  /** Loops that may hold their first request for long (its share): not waited for before "established". */
  holding: number;
  /** Checks sent again at once whatever Retry-After says, as a hostile client would. */
  ignoreRetryAfter?: boolean;
}

export type FloodReport = Record<"stalled" | "begin" | "check", Record<string, number>>;

const plan = JSON.parse(process.argv[2]!) as FloodPlan;
const report: FloodReport = { stalled: {}, begin: {}, check: {} };
let flooding = true;
const stop = () => (flooding = false);
const agent = new http.Agent({ keepAlive: true, maxSockets: plan.waitingBegins + plan.checks });
const headers = { authorization: `Bearer ${plan.token}`, "content-type": "application/json" };
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const count = (kind: keyof FloodReport, status: number) => (report[kind][status] = (report[kind][status] ?? 0) + 1);

/** One request; resolves with its status and Retry-After in ms (0 when none), status 0 when the connection failed. */
function send(path: string, body: string, stallAfter?: number): Promise<{ status: number; retryMs: number }> {
  return new Promise((resolve) => {
    const req = http.request(`${plan.url}${path}`, {
      method: "POST",
      agent: stallAfter === undefined ? agent : false,
      headers: { ...headers, "content-length": Buffer.byteLength(body) },
    });
    req.on("response", (res) => {
      res.resume();
      res.on("end", () => {
        const retry = Number(res.headers["retry-after"]);
        resolve({ status: res.statusCode ?? 0, retryMs: Number.isFinite(retry) ? retry * 1000 * (1 + Math.random() / 4) : 0 });
        if (stallAfter !== undefined) req.destroy();
      });
    });
    req.on("error", () => resolve({ status: 0, retryMs: 100 }));
    if (stallAfter === undefined) req.end(body);
    else req.write(body.slice(0, stallAfter));
  });
}

let answeredOnce = 0;
const loops = plan.stalledBodies + plan.waitingBegins + plan.checks;

async function loop(kind: keyof FloodReport, next: (i: number) => Promise<{ status: number; retryMs: number }>): Promise<void> {
  for (let i = 0; flooding; i++) {
    const { status, retryMs } = await next(i);
    if (i === 0 && ++answeredOnce === loops - plan.holding) process.send?.({ established: true });
    count(kind, status);
    if (retryMs > 0) await sleep(retryMs);
  }
}

async function main(): Promise<void> {
  const request = { order: "flood" };
  const held = JSON.stringify({ key: "held", request });
  await send(`/api/v1/idempotency/${plan.scope}/begin`, held);
  const begin = JSON.stringify({ key: "held", request, waitSeconds: 30 });
  const check = (n: number) => JSON.stringify({ serviceId: plan.serviceId, messageId: `flood-${n % 1000}`, payload: { n } });
  const running = [
    ...Array.from({ length: plan.stalledBodies }, () => loop("stalled", (i) => send("/api/v1/check", check(i), 7))),
    // A begin answered at once (its share of waiters is full) is sent again after a second, not at once.
    ...Array.from({ length: plan.waitingBegins }, () =>
      loop("begin", async () => {
        const answer = await send(`/api/v1/idempotency/${plan.scope}/begin`, begin);
        return { status: answer.status, retryMs: answer.status === 409 ? 1000 : answer.retryMs };
      }),
    ),
    ...Array.from({ length: plan.checks }, (_, c) =>
      loop("check", async (i) => {
        const answer = await send("/api/v1/check", check(c * 100_000 + i));
        return plan.ignoreRetryAfter && answer.status !== 0 ? { ...answer, retryMs: 0 } : answer;
      }),
    ),
  ];
  await new Promise<void>((resolve) => process.once("message", () => resolve()));
  stop();
  process.send?.({ report });
  agent.destroy();
  await Promise.race([Promise.all(running), sleep(1000)]);
  process.exit(0);
}

process.on("disconnect", () => process.exit(0));
void main();
