import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import path from "node:path";
import { sql } from "drizzle-orm";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { authEnv, DEFAULT_SESSION_SECONDS } from "@/lib/auth/auth-env";
import { getAuth } from "@/lib/auth/better-auth";
import { handleAuthRequest } from "@/lib/auth/http-handler";
import { delayFor } from "@/lib/auth/login-backoff";
import { sessionActor } from "@/lib/auth/session-actor";
import { signInWithPassword, signOutSession } from "@/lib/auth/sign-in";
import { RateLimitedError } from "@/lib/errors";
import { browserHeaders, signedInUser } from "@/test/auth-fixtures";
import { createTestDatabase, type TestDatabase } from "@/test/test-db";

let store: TestDatabase;

beforeAll(async () => {
  store = await createTestDatabase();
});

const count = async (query: ReturnType<typeof sql>) => Number(((await store.db.execute(query)).rows[0] as { n: number }).n);

/** Limits count in fixed windows aligned to the epoch; start a long run well inside one. */
async function awayFromWindowEdge(windowSeconds: number, needSeconds = 60): Promise<void> {
  const left = windowSeconds - ((Date.now() / 1000) % windowSeconds);
  if (left < needSeconds) await new Promise((resolve) => setTimeout(resolve, (left + 1) * 1000));
}

const attempt = (email: string, password: string, address: string) =>
  signInWithPassword(store.db, { email, password, headers: browserHeaders({}, address) }).then(
    () => "ok" as const,
    (err: unknown) => (err instanceof RateLimitedError ? err : "refused"),
  );

describe("anonymous sign-in attempts", () => {
  it("leave no audit rows and a bounded number of security events, however many there are", { timeout: 180_000 }, async () => {
    await awayFromWindowEdge(authEnv().loginPerAddress.windowSeconds);
    const address = "203.0.113.66";
    const auditBefore = await count(sql`select count(*)::int as n from audit_log`);
    const long = "x".repeat(300);
    for (let i = 0; i < 200; i++) {
      // Wrong passwords, unknown accounts and malformed emails alike.
      const email = i % 3 === 0 ? `${long}-${i}` : `flood-${i % 7}-${long.slice(0, 200)}@weir.test`;
      await attempt(email, "not the password", address);
    }
    expect(await count(sql`select count(*)::int as n from audit_log`)).toBe(auditBefore);
    const rows = await count(sql`select count(*)::int as n from security_events where address = ${address}`);
    expect(rows).toBeGreaterThan(0);
    expect(rows).toBeLessThanOrEqual(authEnv().loginPerAddress.max + 2);
    const attempts = await count(sql`select sum(count)::int as n from security_events where address = ${address}`);
    expect(attempts).toBe(200);
    const widest = await count(sql`select max(coalesce(length(account), 0))::int as n from security_events where address = ${address}`);
    expect(widest).toBeLessThanOrEqual(120);
  });
});

describe("failed sign-ins on one account", () => {
  it("slow the guessing address down with a growing delay, and never refuse the right password from elsewhere", { timeout: 120_000 }, async () => {
    const user = await signedInUser(store.db, "operator", "198.51.100.1");
    const { freeFailures } = authEnv().loginBackoff;
    const attacker = "198.51.100.77";
    for (let i = 0; i < freeFailures + 1; i++) expect(await attempt(user.email, "wrong password!", attacker)).toBe("refused");
    const held = await attempt(user.email, "wrong password!", attacker);
    expect(held).toBeInstanceOf(RateLimitedError);
    expect((held as RateLimitedError).retryAfterSeconds).toBeGreaterThanOrEqual(1);
    // Even the right password waits at the guessing address...
    expect(await attempt(user.email, user.password, attacker)).toBeInstanceOf(RateLimitedError);
    // ...but the real user, elsewhere, signs in during the attack.
    expect(await attempt(user.email, user.password, "198.51.100.200")).toBe("ok");
    expect(await count(sql`select count(*)::int as n from audit_log where action = 'auth.sign_in' and actor = ${user.email}`)).toBeGreaterThanOrEqual(2);
  });

  it("grow the delay by doubling past the free failures, up to the cap", () => {
    const policy = { freeFailures: 5, maxDelaySeconds: 300, quietSeconds: 900 };
    expect([5, 6, 7, 8, 12, 40].map((n) => delayFor(n, policy))).toEqual([0, 2, 4, 8, 128, 300]);
  });
});

describe("what the database holds of a session", () => {
  it("keeps the SHA-256 of the session token, never the token the cookie carries", async () => {
    const user = await signedInUser(store.db, "viewer");
    const raw = decodeURIComponent(/weir\.session_token=([^;]+)/.exec(user.cookie)![1]!).split(".")[0]!;
    const stored = (await store.db.execute(sql`
      select s.token from auth_sessions s join auth_users u on u.id = s.user_id where u.email = ${user.email}`)).rows as { token: string }[];
    expect(stored).toHaveLength(1);
    expect(stored[0]!.token).toBe(createHash("sha256").update(raw).digest("hex"));
    expect(stored[0]!.token).not.toContain(raw);
    const headers = browserHeaders({ cookie: user.cookie });
    expect(await sessionActor(store.db, headers)).toMatchObject({ id: user.email });
    await signOutSession(store.db, headers);
    expect(await count(sql`select count(*)::int as n from auth_sessions s join auth_users u on u.id = s.user_id where u.email = ${user.email}`)).toBe(0);
  });

  it("offers no endpoint that would list or match sessions by their stored hash", async () => {
    for (const endpoint of ["list-sessions", "revoke-session", "revoke-other-sessions"]) {
      const response = await handleAuthRequest(new Request(`http://weir.test:3000/api/auth/${endpoint}`, { method: "POST" }));
      expect(response.status, endpoint).toBe(404);
    }
  });

  it("lasts as long as the console's docs say, from one constant", async () => {
    const user = await signedInUser(store.db, "viewer");
    const { setCookie } = await signInWithPassword(store.db, { email: user.email, password: user.password, headers: browserHeaders() });
    const session = setCookie.find((c) => c.startsWith("weir.session_token="))!;
    expect(session).toMatch(new RegExp(`Max-Age=${DEFAULT_SESSION_SECONDS}(;|$)`));
    const doc = readFileSync(path.resolve(import.meta.dirname, "../../../docs/console.md"), "utf8");
    const row = doc.split("\n").find((line) => line.includes("`WEIR_SESSION_SECONDS`"))!;
    expect(row).toContain(`${DEFAULT_SESSION_SECONDS / 3600} h`);
  });
});

describe("the session-signing secret", () => {
  const saved = process.env.WEIR_AUTH_SECRET;
  afterEach(() => {
    if (saved === undefined) delete process.env.WEIR_AUTH_SECRET;
    else process.env.WEIR_AUTH_SECRET = saved;
  });

  it("stays out of the database when WEIR_AUTH_SECRET is set", async () => {
    const own = await createTestDatabase();
    process.env.WEIR_AUTH_SECRET = "s".repeat(40);
    await getAuth(own.db);
    expect(Number(((await own.db.execute(sql`select count(*)::int as n from auth_settings`)).rows[0] as { n: number }).n)).toBe(0);
  });
});
