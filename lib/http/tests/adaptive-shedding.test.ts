import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, describe, expect, it } from "vitest";
import type { Store } from "@/db/client";
import { createApiHandler } from "../api-handler";
import { PUBLIC } from "../access";
import { AdaptiveConcurrencyLimit } from "../adaptive-limit";
import { ok, type Route } from "../types";

const SERVICE_MS = 2;

/** A route that takes one turn at a single worker, SERVICE_MS each: capacity about 1000 / SERVICE_MS per second, and a queue past it. */
function serialRoute(): Route {
  let worker = Promise.resolve();
  return {
    method: "POST",
    path: "/api/v1/work",
    access: PUBLIC,
    doc: null,
    handler: async () => {
      const turn = worker.then(() => new Promise<void>((resolve) => setTimeout(resolve, SERVICE_MS)));
      worker = turn;
      await turn;
      return ok({ done: true });
    },
  };
}

interface Answer {
  status: number;
  ms: number;
  sentAt: number;
}

/** Open loop: `rate` requests a second for `seconds`, sent on schedule whatever came back. */
async function drive(url: string, agent: http.Agent, rate: number, seconds: number): Promise<Answer[]> {
  const answers: Promise<Answer>[] = [];
  const start = performance.now();
  const total = rate * seconds;
  while (answers.length < total) {
    const due = Math.min(total, Math.floor(((performance.now() - start) / 1000) * rate));
    while (answers.length < due) {
      const sentAt = performance.now();
      answers.push(
        new Promise<Answer>((resolve, reject) => {
          const req = http.request(`${url}/api/v1/work`, { method: "POST", agent }, (res) => {
            res.resume();
            res.on("end", () => resolve({ status: res.statusCode!, ms: performance.now() - sentAt, sentAt: sentAt - start }));
          });
          req.on("error", reject);
          req.end();
        }),
      );
    }
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  return Promise.all(answers);
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[values.length >> 1] ?? Number.NaN;

describe("adaptive concurrency limit, end to end", () => {
  const limiter = new AdaptiveConcurrencyLimit({ max: 256, min: 8 });
  const noStore = () => Promise.reject(new Error("no store in this test")) as Promise<Store>;
  // One client, so its share is the whole pool: this tests the node's limit, not a caller's share of it.
  const server = http.createServer(createApiHandler([serialRoute()], noStore, limiter, { perCredential: 256 }));
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1024 });
  const listening = new Promise<string>((resolve) => server.listen(0, "127.0.0.1", () => resolve(`http://127.0.0.1:${(server.address() as AddressInfo).port}`)));
  afterAll(() => {
    agent.destroy();
    return new Promise<void>((resolve) => server.close(() => resolve()));
  });

  it("refuses nothing at light load, sheds fast under 3x overload with the accepted answers fast, and refuses nothing after", async () => {
    const url = await listening;
    const light = await drive(url, agent, 100, 1);
    expect(light.filter((a) => a.status !== 200)).toEqual([]);

    const overload = await drive(url, agent, 1500, 3);
    const refused = overload.filter((a) => a.status === 503);
    const lastSecond = overload.filter((a) => a.status === 200 && a.sentAt >= 2000);
    const shape = { refused: refused.length / overload.length, refusedMs: median(refused.map((a) => a.ms)), acceptedLastSecondMs: median(lastSecond.map((a) => a.ms)), limit: limiter.limit };
    console.log(`3x overload: ${JSON.stringify(shape)}`);
    expect(overload.every((a) => a.status === 200 || a.status === 503)).toBe(true);
    expect(shape.refused).toBeGreaterThan(0.4);
    expect(shape.refusedMs).toBeLessThan(50);
    // the fixed ceiling would hold 256 in the queue: 256 x 2 ms = half a second for every answer
    expect(shape.acceptedLastSecondMs).toBeLessThan(250);
    expect(shape.limit).toBeLessThan(128);

    const after = await drive(url, agent, 100, 1);
    expect(after.filter((a) => a.status !== 200)).toEqual([]);
  }, 20_000);
});
