import { NextRequest } from "next/server";
import { beforeAll, describe, expect, it, vi } from "vitest";
import { requireConsoleActor, requireConsoleCaller } from "@/lib/auth/console-actor";
import { handleAuthRequest } from "@/lib/auth/http-handler";
import { UnauthorizedError } from "@/lib/errors";
import { proxy } from "@/proxy";
import { browserHeaders, signedInUser, TEST_ORIGIN } from "@/test/auth-fixtures";
import { createTestDatabase, type TestDatabase } from "@/test/test-db";

// What Next hands a page render: the request's headers, outside any explicit scope.
const pageHeaders = vi.hoisted(() => ({ current: new Headers() }));
vi.mock("next/headers", () => ({ headers: async () => pageHeaders.current }));

let store: TestDatabase;

beforeAll(async () => {
  store = await createTestDatabase();
  // Pages and the auth handler reach the store through db/client's process-wide handle.
  (globalThis as Record<symbol, { promise?: Promise<unknown> }>)[Symbol.for("weir.store")]!.promise = Promise.resolve(store);
});

const visit = (path: string, init: { method?: string; cookie?: string; accept?: string } = {}) =>
  proxy(
    new NextRequest(`${TEST_ORIGIN}${path}`, {
      method: init.method ?? "GET",
      headers: { accept: init.accept ?? "text/html", ...(init.cookie ? { cookie: init.cookie } : {}) },
    }),
  );

const SIGNED_IN = "weir.session_token=anything";

describe("console URLs that are not valid text", () => {
  it("answer 400 naming the parameter or the path, before any page runs", async () => {
    const cases: [string, string][] = [
      ["/find?q=%00", "q"],
      ["/groups/g?claim=a%00b", "claim"],
      ["/services/s?tab=keys&prefix=%00", "prefix"],
      ["/find?q=%E0%A4", "q"], // cut UTF-8
      ["/find?q=%ED%A0%80", "q"], // an encoded surrogate
      ["/find?%00=x", "query"],
      ["/services/a%00b", "path"],
      ["/services/%FF/key", "path"],
    ];
    for (const [path, field] of cases) {
      for (const method of ["GET", "HEAD"]) {
        const response = visit(path, { method, cookie: SIGNED_IN });
        expect(response.status, `${method} ${path}`).toBe(400);
        expect((await response.json()).error).toMatchObject({ code: "invalid_request", field });
      }
    }
    // Ordinary text, encoded or not, passes on to the page.
    for (const path of ["/find?q=order-42", "/find?q=caf%C3%A9+%E2%9C%93", "/services?x=&&y=1", "/find?q=%25"]) {
      expect(visit(path, { cookie: SIGNED_IN }).headers.get("x-middleware-next"), path).toBe("1");
    }
  });
});

describe("signed-out and non-HTML requests for console pages", () => {
  it("sends an anonymous HEAD, like a GET, to sign in", () => {
    for (const method of ["GET", "HEAD"]) {
      const response = visit("/services?tab=keys", { method, accept: "*/*" });
      expect(response.status, method).toBe(307);
      expect(response.headers.get("location"), method).toBe(`${TEST_ORIGIN}/sign-in?next=${encodeURIComponent("/services?tab=keys")}`);
    }
  });

  it("sends a page whose cookie is bogus to sign in whatever it accepts, and answers actions and route handlers 401", async () => {
    for (const accept of ["application/json", "*/*", "text/html"]) {
      pageHeaders.current = new Headers({ host: "weir.test:3000", accept, cookie: "weir.session_token=bogus.bogus" });
      const redirected = await requireConsoleActor("read").then(
        () => "allowed",
        (err: { digest?: string }) => err.digest,
      );
      expect(redirected, accept).toMatch(/^NEXT_REDIRECT;replace;\/sign-in;307;/);
      await expect(requireConsoleCaller("read"), accept).rejects.toBeInstanceOf(UnauthorizedError);
    }
    pageHeaders.current = browserHeaders({ "next-action": "x", cookie: "weir.session_token=bogus.bogus" });
    await expect(requireConsoleActor("read")).rejects.toBeInstanceOf(UnauthorizedError);
    const user = await signedInUser(store.db, "viewer");
    pageHeaders.current = new Headers({ host: "weir.test:3000", accept: "application/json", cookie: user.cookie });
    await expect(requireConsoleActor("read")).resolves.toMatchObject({ id: user.email });
  });

  it("answers HEAD on the auth endpoints without a server error", async () => {
    for (const path of ["/api/auth/get-session", "/api/auth/ok", "/api/auth/sign-in/email"]) {
      const response = await handleAuthRequest(new Request(`${TEST_ORIGIN}${path}`, { method: "HEAD", headers: browserHeaders({ cookie: "weir.session_token=bogus.bogus" }) }));
      expect(response.status, path).toBeLessThan(500);
    }
  });
});
