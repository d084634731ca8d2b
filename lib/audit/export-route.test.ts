import { beforeAll, describe, expect, it } from "vitest";
import { ZodError } from "zod";
import { GET } from "@/app/(console)/audit/export/route";
import { insertAudit } from "@/db/queries/audit";
import { runWithRequestHeaders } from "@/lib/auth/request-headers";
import { failureResponse } from "@/lib/console/route-failure";
import { ConflictError, NotFoundError, RateLimitedError, StoreUnavailableError } from "@/lib/errors";
import { browserHeaders, signedInUser, TEST_ORIGIN, type TestUser } from "@/test/auth-fixtures";
import { createTestDatabase, type TestDatabase } from "@/test/test-db";

let store: TestDatabase;
let viewer: TestUser;

beforeAll(async () => {
  store = await createTestDatabase();
  // The route reaches the store through db/client's process-wide handle: point it at this file's database.
  (globalThis as Record<symbol, { promise?: Promise<unknown> }>)[Symbol.for("weir.store")]!.promise = Promise.resolve(store);
  viewer = await signedInUser(store.db, "viewer");
  await insertAudit(store.db, { actor: "ops", actorRole: "operator", action: "reset.start", target: "service:route-export", affected: 3, reason: "=1+1" });
});

const download = (query: string, user: TestUser | null = viewer) =>
  runWithRequestHeaders(browserHeaders(user ? { cookie: user.cookie } : {}), () => GET(new Request(`${TEST_ORIGIN}/audit/export${query}`)));

describe("GET /audit/export", () => {
  it("streams the filtered log as CSV with formula cells neutralised", async () => {
    const response = await download("?target=service:route-export");
    expect(response.status, await response.clone().text()).toBe(200);
    expect(response.headers.get("content-type")).toContain("text/csv");
    const text = await response.text();
    expect(text.split("\r\n").filter(Boolean)).toHaveLength(2);
    expect(text).toContain(`"'=1+1"`);
  });

  it("refuses NUL and malformed filters with a 400 naming the field before anything is sent", async () => {
    for (const [query, field] of [
      ["?target=%00", "target"],
      ["?actor=a%00b", "actor"],
      ["?action=%00", "action"],
      ["?from=yesterday", "from"],
      [`?target=${"x".repeat(301)}`, "target"],
    ] as const) {
      const response = await download(query);
      expect(response.status, query).toBe(400);
      const body = await response.json();
      expect(body.code, query).toBe("invalid_request");
      expect(Object.keys(body.fieldErrors), query).toContain(field);
    }
  });

  it("answers 401 to a visitor who is not signed in", async () => {
    expect((await download("", null)).status).toBe(401);
  });
});

describe("failureResponse", () => {
  it("keeps the status of typed errors instead of turning them into 500", async () => {
    expect(failureResponse(new NotFoundError("no such batch")).status).toBe(404);
    expect(failureResponse(new ConflictError("already running")).status).toBe(409);
    const limited = failureResponse(new RateLimitedError(7));
    expect(limited.status).toBe(429);
    expect(limited.headers.get("retry-after")).toBe("7");
    expect(failureResponse(new StoreUnavailableError()).status).toBe(503);
    expect(failureResponse(new ZodError([])).status).toBe(400);
    const unknown = failureResponse(new Error("select * from secrets"));
    expect(unknown.status).toBe(500);
    expect(JSON.stringify(await unknown.json())).not.toContain("secrets");
  });
});
