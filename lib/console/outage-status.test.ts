import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { markStoreDown, withOutageStatus } from "./outage-status";

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Stands in for Next: renders asynchronously, the layout may mark the outage, then writes the way Next does. */
const handler = withOutageStatus(async (req, res) => {
  const url = new URL(req.url!, "http://x");
  await pause(Number(url.searchParams.get("after") ?? 5));
  if (url.searchParams.has("down")) markStoreDown();
  if (url.pathname === "/explicit") res.writeHead(200, "OK", { "content-type": "text/html" });
  else {
    res.statusCode = url.pathname === "/missing" ? 404 : 200;
    res.setHeader("content-type", "text/html");
  }
  res.write("<main>the page or the outage notice</main>");
  res.end();
});

let server: http.Server;
let base: string;

beforeAll(async () => {
  server = http.createServer((req, res) => void handler(req, res));
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

describe("console pages during a store outage", () => {
  it("answer 503 with Retry-After and the page Next rendered, whichever way Next writes its head", async () => {
    for (const path of ["/services?down", "/explicit?down"]) {
      for (const method of ["GET", "HEAD"]) {
        const response = await fetch(`${base}${path}`, { method });
        expect(response.status, `${method} ${path}`).toBe(503);
        expect(response.headers.get("retry-after")).toBe("5");
        expect(response.headers.get("content-type")).toBe("text/html");
        if (method === "GET") expect(await response.text()).toContain("outage notice");
      }
    }
  });

  it("leave other answers, and other requests in flight at the same time, as they are", async () => {
    const [down, up, missing] = await Promise.all([
      fetch(`${base}/services?down&after=30`),
      fetch(`${base}/services?after=10`),
      fetch(`${base}/missing?down`),
    ]);
    expect([down.status, up.status, missing.status]).toEqual([503, 200, 404]);
    expect(up.headers.get("retry-after")).toBeNull();
  });

  it("marks nothing outside a wrapped request", () => {
    expect(() => markStoreDown()).not.toThrow();
  });
});
