import { sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { SYSTEM_ACTOR } from "@/lib/auth/actor";
import { authEnv } from "@/lib/auth/auth-env";
import { createWeirAuth } from "@/lib/auth/better-auth";
import { requireRecentSignIn } from "@/lib/auth/recent-sign-in";
import { sessionActor } from "@/lib/auth/session-actor";
import { signInWithPassword, signOutSession } from "@/lib/auth/sign-in";
import { createUser } from "@/lib/auth/users/create-user";
import { RateLimitedError, ReauthenticationRequiredError, UnauthorizedError } from "@/lib/errors";
import { browserHeaders, cookieHeaderOf, signedInUser } from "@/test/auth-fixtures";
import { createTestDatabase, type TestDatabase } from "@/test/test-db";

let store: TestDatabase;

beforeAll(async () => {
  store = await createTestDatabase();
});

const rows = async <T>(query: ReturnType<typeof sql>) => (await store.db.execute(query)).rows as T[];

/**
 * Login limits count in fixed windows aligned to the epoch; a run that crosses
 * a boundary starts counting again. Start such a run well inside one window.
 */
async function awayFromWindowEdge(windowSeconds: number, needSeconds = 45): Promise<void> {
  const intoWindow = (Date.now() / 1000) % windowSeconds;
  const left = windowSeconds - intoWindow;
  if (left < needSeconds) await new Promise((resolve) => setTimeout(resolve, (left + 1) * 1000));
}

describe("console sign-in", () => {
  it("signs in with a scrypt-hashed password and sets an HttpOnly, SameSite=Lax session cookie", async () => {
    const user = await signedInUser(store.db, "operator");
    const [account] = await rows<{ password: string }>(sql`select a.password from auth_accounts a join auth_users u on u.id = a.user_id where u.email = ${user.email}`);
    expect(account!.password).not.toContain(user.password);
    expect(account!.password).toMatch(/^[0-9a-f]{32}:[0-9a-f]{128}$/); // scrypt salt:key, N=16384 r=16
    const { setCookie } = await signInWithPassword(store.db, { email: user.email, password: user.password, headers: browserHeaders() });
    const session = setCookie.find((c) => c.startsWith("weir.session_token="))!;
    expect(session).toMatch(/HttpOnly/i);
    expect(session).toMatch(/SameSite=Lax/i);
    expect(session).toMatch(/Path=\//);
    const actor = await sessionActor(store.db, browserHeaders({ cookie: cookieHeaderOf(setCookie) }));
    expect(actor).toMatchObject({ id: user.email, role: "operator", via: "session" });
  });

  it("uses a __Host- Secure cookie when served over https", async () => {
    const env = { ...authEnv(), publicUrl: "https://weir.example.com", secureCookies: true };
    const auth = createWeirAuth(store.db, "x".repeat(32), env);
    const email = `https-${Date.now()}@weir.test`;
    await createUser({ db: store.db, actor: SYSTEM_ACTOR, input: { email, password: "correct horse battery", role: "viewer" } });
    const { headers } = await auth.api.signInEmail({ body: { email, password: "correct horse battery" }, headers: browserHeaders(), returnHeaders: true });
    const session = headers.getSetCookie().find((c) => c.includes("session_token"))!;
    expect(session.startsWith("__Host-weir.session_token=")).toBe(true);
    expect(session).toMatch(/; Secure/i);
    expect(session).not.toMatch(/Domain=/i);
  });

  it("refuses a wrong password with one message and keeps the failure as a security event, not an audit row", async () => {
    const user = await signedInUser(store.db, "viewer");
    await expect(signInWithPassword(store.db, { email: user.email, password: "not the password", headers: browserHeaders() })).rejects.toBeInstanceOf(UnauthorizedError);
    await expect(signInWithPassword(store.db, { email: "nobody@weir.test", password: "whatever-123", headers: browserHeaders() })).rejects.toThrow("wrong email or password");
    const events = await rows<{ kind: string; account: string }>(sql`select kind, account from security_events where kind = 'sign_in_failed' order by id`);
    expect(events).toEqual(expect.arrayContaining([{ kind: "sign_in_failed", account: user.email }, { kind: "sign_in_failed", account: "nobody@weir.test" }]));
    expect(await rows(sql`select 1 from audit_log where action like 'auth.sign_in_%'`)).toHaveLength(0);
  });

  it("limits attempts per address, whatever the account", { timeout: 120_000 }, async () => {
    await awayFromWindowEdge(authEnv().loginPerAddress.windowSeconds);
    const address = "192.0.2.200";
    const max = authEnv().loginPerAddress.max;
    let limitedAt = -1;
    for (let i = 0; i <= max && limitedAt < 0; i++) {
      await signInWithPassword(store.db, { email: `spray-${i}@weir.test`, password: "guess-guess-guess", headers: browserHeaders({}, address) }).catch((err: unknown) => {
        if (err instanceof RateLimitedError) limitedAt = i;
      });
    }
    expect(limitedAt).toBe(max);
  });

  it("signs out: the session row is gone and the cookie no longer works", async () => {
    const user = await signedInUser(store.db, "admin");
    const headers = browserHeaders({ cookie: user.cookie });
    expect(await sessionActor(store.db, headers)).not.toBeNull();
    const { setCookie } = await signOutSession(store.db, headers);
    expect(setCookie.some((c) => c.startsWith("weir.session_token=;") || /Max-Age=0/i.test(c))).toBe(true);
    expect(await sessionActor(store.db, headers)).toBeNull();
    const audit = await rows<{ actor: string }>(sql`select actor from audit_log where action = 'auth.sign_out' and actor = ${user.email}`);
    expect(audit).toHaveLength(1);
  });

  it("has no self sign-up", async () => {
    const { getAuth } = await import("@/lib/auth/better-auth");
    const auth = await getAuth(store.db);
    const response = await auth.handler(
      new Request("http://weir.test:3000/api/auth/sign-up/email", {
        method: "POST",
        headers: browserHeaders({ "content-type": "application/json" }),
        body: JSON.stringify({ email: "intruder@weir.test", password: "intruder-password", name: "x" }),
      }),
    );
    expect(response.status).toBeGreaterThanOrEqual(400);
    expect(await rows(sql`select 1 from auth_users where email = 'intruder@weir.test'`)).toHaveLength(0);
  });

  it("asks for a fresh sign-in for destructive operations after 15 minutes", async () => {
    const user = await signedInUser(store.db, "operator");
    const headers = browserHeaders({ cookie: user.cookie });
    const fresh = (await sessionActor(store.db, headers))!;
    expect(() => requireRecentSignIn(fresh)).not.toThrow();
    await store.db.execute(sql`update auth_sessions s set created_at = now() - interval '16 minutes' from auth_users u where u.id = s.user_id and u.email = ${user.email}`);
    const stale = (await sessionActor(store.db, headers))!;
    expect(stale).not.toBeNull();
    expect(() => requireRecentSignIn(stale)).toThrow(ReauthenticationRequiredError);
    // Tokens never sign in; the token is the credential.
    expect(() => requireRecentSignIn({ id: "token:tok_x", role: "admin", via: "token" })).not.toThrow();
  });

  it("gives nothing to a session whose user lost their role", async () => {
    const user = await signedInUser(store.db, "viewer");
    await store.db.execute(sql`alter table auth_users drop constraint auth_users_role`);
    await store.db.execute(sql`update auth_users set role = 'superuser' where email = ${user.email}`);
    expect(await sessionActor(store.db, browserHeaders({ cookie: user.cookie }))).toBeNull();
  });
});
