import { sql } from "drizzle-orm";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import pg from "pg";
import { bootstrapAuth, bootstrapAuthOnceReachable, DEMO_ADMIN_EMAIL } from "@/lib/auth/bootstrap";
import { handleDemoSignIn } from "@/lib/auth/http-handler";
import { sessionActor } from "@/lib/auth/session-actor";
import { signInWithPassword } from "@/lib/auth/sign-in";
import { actorForToken } from "@/lib/auth/tokens/token-cache";
import { browserHeaders, cookieHeaderOf } from "@/test/auth-fixtures";
import { createTestDatabase, type TestDatabase } from "@/test/test-db";

let store: TestDatabase;
const saved = { ...process.env };

beforeAll(async () => {
  store = await createTestDatabase();
  (globalThis as Record<symbol, { promise?: Promise<unknown> }>)[Symbol.for("weir.store")]!.promise = Promise.resolve(store);
});
afterEach(() => {
  for (const name of ["WEIR_DEMO", "WEIR_ADMIN_EMAIL", "WEIR_ADMIN_PASSWORD"]) {
    if (saved[name] === undefined) delete process.env[name];
    else process.env[name] = saved[name];
  }
});

describe("first start", () => {
  it("creates the first admin from WEIR_ADMIN_EMAIL once, and never changes it afterwards", async () => {
    process.env.WEIR_ADMIN_EMAIL = "First@Weir.test";
    process.env.WEIR_ADMIN_PASSWORD = "first admin password";
    await bootstrapAuth(store.db);
    process.env.WEIR_ADMIN_PASSWORD = "a different password";
    await bootstrapAuth(store.db);
    const users = (await store.db.execute(sql`select email, role from auth_users where email = 'first@weir.test'`)).rows;
    expect(users).toEqual([{ email: "first@weir.test", role: "admin" }]);
    await expect(signInWithPassword(store.db, { email: "first@weir.test", password: "first admin password", headers: browserHeaders() })).resolves.toBeDefined();
  });
});

describe("a store unreachable at start", () => {
  it("gets the first admin once it answers, without a restart", async () => {
    process.env.WEIR_ADMIN_EMAIL = "after-outage@weir.test";
    process.env.WEIR_ADMIN_PASSWORD = "admin after the outage";
    let refused = 0;
    const openDb = async () => {
      if (refused < 3) {
        refused++;
        // Nothing listens on port 1: the driver's own ECONNREFUSED, as at a boot with the database down.
        const down = new pg.Client({ connectionString: "postgres://postgres@127.0.0.1:1/weir", connectionTimeoutMillis: 500 });
        await down.connect().finally(() => down.end().catch(() => undefined));
      }
      return store.db;
    };
    expect(await bootstrapAuthOnceReachable(openDb, 50)).toBe(true);
    expect(refused).toBe(3);
    await expect(signInWithPassword(store.db, { email: "after-outage@weir.test", password: "admin after the outage", headers: browserHeaders() })).resolves.toBeDefined();
  });

  it("stops on a failure that waiting will not cure", async () => {
    process.env.WEIR_ADMIN_EMAIL = "short-password@weir.test";
    process.env.WEIR_ADMIN_PASSWORD = "short";
    expect(await bootstrapAuthOnceReachable(async () => store.db, 50)).toBe(false);
  });
});

describe("demo mode", () => {
  it("signs visitors in as the demo admin and gives the demo traffic a token, replaced at each start", async () => {
    process.env.WEIR_DEMO = "1";
    const first = (await bootstrapAuth(store.db)).demoToken!;
    expect(await actorForToken(store.db, first)).toMatchObject({ role: "admin", via: "token" });
    const response = await handleDemoSignIn(new Request("http://weir.test:3000/api/auth/demo?next=%2Fkeys", { headers: browserHeaders() }));
    expect(response.status).toBe(303);
    expect(response.headers.get("location")).toBe("/keys");
    const actor = await sessionActor(store.db, browserHeaders({ cookie: cookieHeaderOf(response.headers.getSetCookie()) }));
    expect(actor).toMatchObject({ id: DEMO_ADMIN_EMAIL, role: "admin" });

    const second = (await bootstrapAuth(store.db)).demoToken!;
    expect(second).not.toBe(first);
    const live = (await store.db.execute(sql`select count(*)::int as n from api_tokens where name = 'demo traffic' and revoked_at is null`)).rows[0];
    expect(live).toEqual({ n: 1 });
  });

  it("does not exist outside demo mode", async () => {
    delete process.env.WEIR_DEMO;
    const response = await handleDemoSignIn(new Request("http://weir.test:3000/api/auth/demo", { headers: browserHeaders() }));
    expect(response.status).toBe(404);
  });
});
