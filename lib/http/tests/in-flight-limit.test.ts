import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, describe, expect, it } from "vitest";
import type { Store } from "@/db/client";
import { createApiHandler } from "../api-handler";
import { AdaptiveConcurrencyLimit } from "../adaptive-limit";
import { PUBLIC } from "../access";
import { ok, type Route } from "../types";

/** Two public routes: one that holds its request until released, and the health route's path. */
function routes(held: Array<() => void>): Route[] {
  return [
    {
      method: "GET",
      path: "/api/v1/held",
      access: PUBLIC,
      doc: null,
      handler: () => new Promise((resolve) => held.push(() => resolve(ok({ held: true })))),
    },
    { method: "GET", path: "/api/health", access: PUBLIC, doc: null, handler: async () => ok({ status: "ok" }) },
  ];
}

describe("requests in flight", () => {
  const held: Array<() => void> = [];
  const noStore = () => Promise.reject(new Error("no store in this test")) as Promise<Store>;
  const server = http.createServer(createApiHandler(routes(held), noStore, new AdaptiveConcurrencyLimit({ max: 3, min: 3 })));
  const listening = new Promise<string>((resolve) => server.listen(0, "127.0.0.1", () => resolve(`http://127.0.0.1:${(server.address() as AddressInfo).port}`)));
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it("past the limit answers 503 overloaded at once, never refuses health, and takes requests again when some finish", async () => {
    const url = await listening;
    const first = Array.from({ length: 3 }, () => fetch(`${url}/api/v1/held`));
    while (held.length < 3) await new Promise((resolve) => setTimeout(resolve, 5));
    const refused = await fetch(`${url}/api/v1/held`);
    expect(refused.status).toBe(503);
    expect(refused.headers.get("retry-after")).toBe("1");
    expect((await refused.json()).error.code).toBe("overloaded");
    expect((await fetch(`${url}/api/health`)).status).toBe(200);
    held.splice(0).forEach((release) => release());
    expect((await Promise.all(first)).map((r) => r.status)).toEqual([200, 200, 200]);
    const again = fetch(`${url}/api/v1/held`);
    while (held.length < 1) await new Promise((resolve) => setTimeout(resolve, 5));
    held.splice(0).forEach((release) => release());
    expect((await again).status).toBe(200);
  });
});
