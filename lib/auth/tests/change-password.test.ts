import { sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { authEnv } from "@/lib/auth/auth-env";
import { getAuth } from "@/lib/auth/better-auth";
import { sessionActor } from "@/lib/auth/session-actor";
import { signInWithPassword } from "@/lib/auth/sign-in";
import { changeOwnPassword } from "@/lib/auth/users/change-own-password";
import { RateLimitedError, ValidationError } from "@/lib/errors";
import { browserHeaders, cookieHeaderOf, signedInUser, TEST_ORIGIN } from "@/test/auth-fixtures";
import { createTestDatabase, type TestDatabase } from "@/test/test-db";

let store: TestDatabase;

beforeAll(async () => {
  store = await createTestDatabase();
});

const rows = async <T>(query: ReturnType<typeof sql>) => (await store.db.execute(query)).rows as T[];

/** A request to Better Auth's own HTTP handler, as a browser on our origin sends it. */
async function authHttp(path: string, init: { body?: unknown; cookie?: string; address?: string } = {}): Promise<Response> {
  const headers = browserHeaders(init.cookie ? { cookie: init.cookie } : {}, init.address);
  if (init.body !== undefined) headers.set("content-type", "application/json");
  const request = new Request(`${TEST_ORIGIN}/api/auth${path}`, { method: init.body === undefined ? "GET" : "POST", headers, body: init.body === undefined ? undefined : JSON.stringify(init.body) });
  return (await getAuth(store.db)).handler(request);
}

const signInAgain = async (email: string, password: string, address?: string) =>
  cookieHeaderOf((await signInWithPassword(store.db, { email, password, headers: browserHeaders({}, address) })).setCookie);

describe("changing one's password", () => {
  it("is held to the account's back-off like sign-in, records each wrong guess, and slows sign-in from that address too", { timeout: 60_000 }, async () => {
    const address = "198.51.100.31";
    const user = await signedInUser(store.db, "viewer", address);
    const { freeFailures } = authEnv().loginBackoff;
    const statuses: number[] = [];
    for (let i = 0; i < freeFailures + 2; i++) {
      const response = await authHttp("/change-password", { cookie: user.cookie, address, body: { currentPassword: `guess-${i}-guess-guess`, newPassword: "a brand new password" } });
      statuses.push(response.status);
      if (response.status === 429) expect(Number(response.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
    }
    expect(statuses).toEqual([...Array(freeFailures + 1).fill(400), 429]);
    const events = await rows<{ kind: string; account: string; n: number }>(
      sql`select kind, account, sum(count)::int as n from security_events where address = ${address} group by kind, account order by kind`,
    );
    expect(events).toEqual([
      { kind: "password_check_delayed", account: user.email, n: 1 },
      { kind: "password_check_failed", account: user.email, n: freeFailures + 1 },
    ]);
    // The same account's wait applies to sign-in from the guessing address, not from elsewhere.
    await expect(signInAgain(user.email, user.password, address)).rejects.toBeInstanceOf(RateLimitedError);
    await expect(signInAgain(user.email, user.password, "198.51.100.32")).resolves.toContain("weir.session_token=");
    // The password did not change.
    expect(await rows(sql`select 1 from audit_log where action = 'auth.password_change' and actor = ${user.email}`)).toHaveLength(0);
  });

  it("counts against the per-address limit sign-in has", { timeout: 60_000 }, async () => {
    const address = "198.51.100.41";
    const user = await signedInUser(store.db, "viewer", address);
    const { max, windowSeconds } = authEnv().loginPerAddress;
    await store.db.execute(sql`
      insert into auth_rate_limits (key, window_start, hits)
      values (${`login:address:${address}`}, to_timestamp(floor(extract(epoch from now()) / ${windowSeconds}::int) * ${windowSeconds}::int), ${max})
      on conflict (key) do update set hits = excluded.hits, window_start = excluded.window_start`);
    const response = await authHttp("/change-password", { cookie: user.cookie, address, body: { currentPassword: user.password, newPassword: "a brand new password" } });
    expect(response.status).toBe(429);
    expect(await rows(sql`select 1 from security_events where address = ${address} and kind = 'password_check_rate_limited'`)).toHaveLength(1);
  });

  it("succeeds with the current password: audited, every other session ended, this one kept", async () => {
    const user = await signedInUser(store.db, "operator");
    const elsewhere = await signInAgain(user.email, user.password, "203.0.113.90");
    const newPassword = "the new password, long enough";
    const third = await signInAgain(user.email, user.password, "203.0.113.91");
    await changeOwnPassword({ db: store.db, headers: browserHeaders({ cookie: user.cookie }), input: { currentPassword: user.password, newPassword, confirmPassword: newPassword } });
    // The session that changed the password is the same one, still valid: a page rendering meanwhile stays signed in.
    expect(await sessionActor(store.db, browserHeaders({ cookie: user.cookie }))).toMatchObject({ id: user.email });
    expect(await sessionActor(store.db, browserHeaders({ cookie: elsewhere }))).toBeNull();
    expect(await sessionActor(store.db, browserHeaders({ cookie: third }))).toBeNull();
    const sessions = await rows<{ n: number }>(sql`select count(*)::int as n from auth_sessions s join auth_users u on u.id = s.user_id where u.email = ${user.email}`);
    expect(sessions).toEqual([{ n: 1 }]);
    const [audit] = await rows<{ actor: string; actor_role: string; target: string; details: Record<string, unknown> }>(
      sql`select actor, actor_role, target, details from audit_log where action = 'auth.password_change' and actor = ${user.email}`,
    );
    expect(audit).toMatchObject({ actor: user.email, actor_role: "operator", target: `user:${user.email}`, details: { otherSessionsEnded: true, sessionsEnded: 2 } });
    await expect(signInAgain(user.email, newPassword)).resolves.toContain("weir.session_token=");
    await expect(signInAgain(user.email, user.password)).rejects.toThrow("wrong email or password");
  });

  it("names the field that is wrong", async () => {
    const user = await signedInUser(store.db, "viewer");
    const headers = browserHeaders({ cookie: user.cookie });
    const refused = (input: { currentPassword: string; newPassword: string; confirmPassword: string }) =>
      changeOwnPassword({ db: store.db, headers, input }).then(
        () => "changed",
        (err: unknown) => (err instanceof ValidationError ? err.field : (err as { issues?: { path: string[] }[] }).issues?.[0]?.path[0]),
      );
    expect(await refused({ currentPassword: "wrong wrong wrong", newPassword: "long enough password", confirmPassword: "long enough password" })).toBe("currentPassword");
    expect(await refused({ currentPassword: user.password, newPassword: "short", confirmPassword: "short" })).toBe("newPassword");
    expect(await refused({ currentPassword: user.password, newPassword: "long enough password", confirmPassword: "something else" })).toBe("confirmPassword");
    expect(await refused({ currentPassword: user.password, newPassword: user.password, confirmPassword: user.password })).toBe("newPassword");
  });
});

describe("the raw session token", () => {
  it("is in no JSON answer: sign-in, get-session and change-password", async () => {
    const user = await signedInUser(store.db, "viewer");
    const signIn = await authHttp("/sign-in/email", { body: { email: user.email, password: user.password } });
    expect(signIn.status).toBe(200);
    const cookie = cookieHeaderOf(signIn.headers.getSetCookie());
    const raw = decodeURIComponent(/weir\.session_token=([^;]+)/.exec(cookie)![1]!).split(".")[0]!;
    const signedIn = await signIn.text();
    expect(JSON.parse(signedIn).user.email).toBe(user.email);
    expect(signedIn).not.toContain(raw);
    expect(JSON.parse(signedIn)).not.toHaveProperty("token");

    const session = await (await authHttp("/get-session", { cookie })).text();
    expect(JSON.parse(session).user.email).toBe(user.email);
    expect(JSON.parse(session).session).not.toHaveProperty("token");
    expect(session).not.toContain(raw);

    // Asking Better Auth to revoke (and so mint a new session) is overridden: the cookie stays, no token anywhere.
    const changed = await authHttp("/change-password", { cookie, body: { currentPassword: user.password, newPassword: "another long password", revokeOtherSessions: true } });
    expect(changed.status).toBe(200);
    expect(changed.headers.getSetCookie().join()).not.toContain("weir.session_token=");
    const body = await changed.text();
    expect(JSON.parse(body)).not.toHaveProperty("token");
    expect(body).not.toContain(raw);
    expect(await sessionActor(store.db, browserHeaders({ cookie }))).toMatchObject({ id: user.email });
  });
});
