import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll } from "vitest";
import type { Store } from "@/db/client";
import { SYSTEM_ACTOR } from "@/lib/auth/actor";
import { createApiToken } from "@/lib/auth/tokens/create-token";
import type { CreateTokenInput } from "@/lib/validation/tokens";
import { AdaptiveConcurrencyLimit } from "../adaptive-limit";
import { createApiHandler, type ApiHandlerOptions } from "../api-handler";
import { createApiRoutes } from "../routes";

export interface Answer {
  status: number;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- parsed JSON that each test reads its own way
  body: any;
  headers: http.IncomingHttpHeaders;
  ms: number;
  /** Resolves once the connection is closed (true), or false after two seconds if it stays open. */
  closed: Promise<boolean>;
}

/** The real API door over a test store, with a fixed limit of `maxInFlight`; closed after the file. */
export async function startCapacityApi(store: Store, maxInFlight: number, options: ApiHandlerOptions = {}): Promise<string> {
  const getStore = async () => store;
  const limiter = new AdaptiveConcurrencyLimit({ max: maxInFlight, min: maxInFlight });
  const handler = createApiHandler(createApiRoutes(getStore), getStore, limiter, options);
  const server = http.createServer((req, res) => void handler(req, res));
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  afterAll(() => {
    server.closeAllConnections();
    return new Promise<void>((resolve) => server.close(() => resolve()));
  });
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

export async function tokenFor(store: Store, input: Partial<CreateTokenInput> & { name: string }): Promise<{ token: string; id: string }> {
  const all = { services: ["*"], consumerGroups: ["*"], idempotencyScopes: ["*"] };
  const { token, details } = await createApiToken({ db: store.db, actor: SYSTEM_ACTOR, input: { role: "service", ...all, ...input } });
  return { token, id: details.id };
}

/**
 * One request on a connection of its own. With `stallAfter`, only that many bytes of the body are
 * sent (the declared length is the whole body's) and the rest never comes: a stalled body.
 */
export function send(url: string, method: string, path: string, token: string | null, body?: unknown, stallAfter?: number): Promise<Answer> {
  const text = body === undefined ? undefined : JSON.stringify(body);
  const started = performance.now();
  return new Promise((resolve) => {
    const headers: Record<string, string | number> = { "content-type": "application/json" };
    if (token) headers.authorization = `Bearer ${token}`;
    if (text !== undefined) headers["content-length"] = Buffer.byteLength(text);
    const req = http.request(`${url}${path}`, { method, headers, agent: false });
    const closed = new Promise<boolean>((done) => {
      const timer = setTimeout(() => done(false), 2000);
      req.once("socket", (socket) => socket.once("close", () => (clearTimeout(timer), done(true))));
    });
    req.on("response", (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (chunk: Buffer) => chunks.push(chunk));
      res.on("end", () => {
        const raw = Buffer.concat(chunks).toString("utf8");
        const json = String(res.headers["content-type"]).startsWith("application/json");
        resolve({ status: res.statusCode ?? 0, body: json ? JSON.parse(raw) : raw, headers: res.headers, ms: performance.now() - started, closed });
      });
    });
    req.on("error", () => resolve({ status: 0, body: null, headers: {}, ms: performance.now() - started, closed }));
    if (text === undefined) req.end();
    else if (stallAfter === undefined) req.end(text);
    else req.write(text.slice(0, stallAfter));
  });
}

export const check = (serviceId: string, messageId: string) => ({ serviceId, messageId, payload: { n: 1 } });

/** Waits until `probe` holds, every 10 ms, for at most `timeoutMs`. */
export async function until(probe: () => boolean | Promise<boolean>, timeoutMs = 5000): Promise<void> {
  const started = Date.now();
  while (!(await probe())) {
    if (Date.now() - started > timeoutMs) throw new Error(`not within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}
