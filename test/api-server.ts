import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll } from "vitest";
import type { Store } from "@/db/client";
import { SYSTEM_ACTOR } from "@/lib/auth/actor";
import { createApiToken } from "@/lib/auth/tokens/create-token";
import { generateTokenSecret } from "@/lib/auth/tokens/token-secret";
import { createApiHandler } from "@/lib/http/api-handler";
import { answerClientError } from "@/lib/http/client-error";
import { createApiRoutes } from "@/lib/http/routes";
import type { CreateTokenInput } from "@/lib/validation/tokens";

export interface TestResponse {
  status: number;
  body: any;
  headers: Headers;
}

export type Requester = (method: string, path: string, body?: unknown, headers?: Record<string, string>) => Promise<TestResponse>;

/** Who a request is sent as: null for anonymous, a token secret, or explicit headers (e.g. a session cookie). */
export type Caller = null | string | { headers: Record<string, string> };

export interface TestApi {
  url: string;
  /** An admin token scoped to everything; `request` sends it unless headers carry their own authorization. */
  adminToken: string;
  request: Requester;
  as(caller: Caller): { request: Requester };
  /** Creates a token in the test store and returns its secret. */
  createToken(input: CreateTokenInput): Promise<string>;
}

const ALL = { services: ["*"], consumerGroups: ["*"], idempotencyScopes: ["*"] };

/**
 * The real API handler on an ephemeral port, bound to a test store; closed
 * after the file. Requests are authenticated as an all-scopes admin token by
 * default, so API tests of other areas need not care about auth.
 */
export async function startTestApi(getStore: () => Promise<Store>): Promise<TestApi> {
  const handler = createApiHandler(createApiRoutes(getStore), getStore);
  const server = http.createServer((req, res) => void handler(req, res));
  server.on("clientError", answerClientError);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  const createToken = async (input: CreateTokenInput) => {
    const { db } = await getStore();
    return (await createApiToken({ db, actor: SYSTEM_ACTOR, input })).token;
  };
  // A store that is down from the start gets a token it never saw: requests then fail closed with 503.
  const adminToken = await createToken({ name: "test admin", role: "admin", ...ALL }).catch(() => generateTokenSecret());

  const send = (caller: Caller): Requester => async (method, path, body, headers = {}) => {
    const auth = caller === null ? {} : typeof caller === "string" ? { authorization: `Bearer ${caller}` } : caller.headers;
    const response = await fetch(`${url}${path}`, {
      method,
      headers: { "content-type": "application/json", ...auth, ...headers },
      body: body === undefined ? undefined : typeof body === "string" ? body : JSON.stringify(body),
    });
    const text = await response.text();
    let parsed: unknown = text;
    try {
      parsed = JSON.parse(text);
    } catch {
      // non-JSON bodies (metrics) stay text
    }
    return { status: response.status, body: parsed, headers: response.headers };
  };

  return { url, adminToken, request: send(adminToken), as: (caller) => ({ request: send(caller) }), createToken };
}
