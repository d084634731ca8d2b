import { sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import type { Actor } from "@/lib/auth/actor";
import { sessionActor } from "@/lib/auth/session-actor";
import { signInWithPassword } from "@/lib/auth/sign-in";
import { createApiToken } from "@/lib/auth/tokens/create-token";
import { createUser } from "@/lib/auth/users/create-user";
import { disableUser } from "@/lib/auth/users/disable-user";
import { listUsersVerb } from "@/lib/auth/users/list-users";
import { setUserPassword } from "@/lib/auth/users/set-password";
import { changeUserRole } from "@/lib/auth/users/set-user-role";
import { ConflictError, ForbiddenError } from "@/lib/errors";
import { startTestApi, type TestApi } from "@/test/api-server";
import { browserHeaders, signedInUser } from "@/test/auth-fixtures";
import { createTestDatabase, type TestDatabase } from "@/test/test-db";

let store: TestDatabase;
let api: TestApi;

beforeAll(async () => {
  store = await createTestDatabase();
  api = await startTestApi(async () => store);
});

const adminActor = (email: string): Actor => ({ id: email, role: "admin", via: "session", signedInAt: new Date() });
const audit = async (action: string, email: string) =>
  (await store.db.execute(sql`select actor, reason, details from audit_log where action = ${action} and target = ${`user:${email}`}`)).rows as { actor: string; reason: string | null; details: Record<string, unknown> }[];
const idOf = async (email: string) => ((await store.db.execute(sql`select id from auth_users where email = ${email}`)).rows[0] as { id: string }).id;
const canSignIn = (email: string, password: string) => signInWithPassword(store.db, { email, password, headers: browserHeaders() }).then(() => true, () => false);

describe("managing console users", () => {
  it("creates a user with a generated password, shown once, which signs in", async () => {
    const created = await api.request("POST", "/api/v1/users", { email: "Generated@Weir.Test", role: "operator" });
    expect(created.status).toBe(201);
    const { email, password } = created.body as { email: string; password: string };
    expect(email).toBe("generated@weir.test");
    expect(password.length).toBeGreaterThanOrEqual(24);
    expect(await canSignIn(email, password)).toBe(true);
    // Given a password, none comes back.
    const given = await api.request("POST", "/api/v1/users", { email: "given@weir.test", password: "a password long enough" });
    expect(given.body).not.toHaveProperty("password");
  });

  it("disables a user: sessions end, sign-in is refused like a wrong password, listed as disabled, audited with the reason; a reset enables them", async () => {
    const user = await signedInUser(store.db, "operator");
    const admin = await signedInUser(store.db, "admin");
    const id = await idOf(user.email);
    const refused = await api.request("POST", `/api/v1/users/${id}/disable`, {});
    expect(refused.status).toBe(400);
    expect((refused.body as { error: { field: string } }).error.field).toBe("reason");
    for (const verb of ["disable", "password"]) {
      const nul = await api.request("POST", `/api/v1/users/%00/${verb}`, { reason: "x" });
      expect([nul.status, (nul.body as { error: { field: string } }).error.field]).toEqual([400, "id"]);
    }

    const disabled = await disableUser({ db: store.db, actor: adminActor(admin.email), userId: id, input: { reason: "left the team" } });
    expect(disabled).toMatchObject({ email: user.email, disabled: true });
    expect(await sessionActor(store.db, browserHeaders({ cookie: user.cookie }))).toBeNull();
    expect(await canSignIn(user.email, user.password)).toBe(false);
    expect((await listUsersVerb({ db: store.db, actor: adminActor(admin.email) })).find((u) => u.email === user.email)).toMatchObject({ disabled: true, role: "operator" });
    expect(await audit("user.disable", user.email)).toEqual([{ actor: admin.email, reason: "left the team", details: { sessionsEnded: 1, wasDisabled: false } }]);

    const reset = await api.request("POST", `/api/v1/users/${id}/password`, { reason: "back from leave" });
    expect(reset.status).toBe(200);
    const { password } = reset.body as { password: string };
    expect(await canSignIn(user.email, password)).toBe(true);
    expect(await canSignIn(user.email, user.password)).toBe(false);
    expect((await listUsersVerb({ db: store.db, actor: adminActor(admin.email) })).find((u) => u.email === user.email)).toMatchObject({ disabled: false });
    expect(await audit("user.password_reset", user.email)).toMatchObject([{ reason: "back from leave", details: { generated: true, sessionsEnded: 0 } }]);
  });

  it("leaves the user's API tokens working unless asked to revoke them, then revokes exactly theirs, at once and audited", async () => {
    const admin = adminActor("token-admin@weir.test");
    const keeper = await createUser({ db: store.db, actor: admin, input: { email: "keeps-tokens@weir.test", role: "admin" } });
    const leaver = await createUser({ db: store.db, actor: admin, input: { email: "revokes-tokens@weir.test", role: "admin" } });
    const tokenOf = async (creator: string, name: string) => (await createApiToken({ db: store.db, actor: adminActor(creator), input: { name, role: "service" } })).token;
    const kept = await tokenOf(keeper.email, "kept-a");
    const leaverTokens = [await tokenOf(leaver.email, "gone-a"), await tokenOf(leaver.email, "gone-b")];
    const othersToken = await tokenOf(admin.id, "someone-elses");
    const live = async (email: string) => (await listUsersVerb({ db: store.db, actor: admin })).find((u) => u.email === email)!.liveTokens;
    expect([await live(keeper.email), await live(leaver.email)]).toEqual([1, 2]);
    // Authenticated (whatever the role may then do) or not: a revoked token is a 401.
    const works = async (token: string) => (await api.as(token).request("GET", "/api/v1/services")).status !== 401;

    expect(await disableUser({ db: store.db, actor: admin, userId: keeper.id, input: { reason: "moved teams" } })).toMatchObject({ tokensRevoked: 0 });
    expect(await works(kept)).toBe(true);
    expect(await live(keeper.email)).toBe(1);

    for (const token of leaverTokens) expect(await works(token)).toBe(true); // cached as live on this node
    const disabled = await disableUser({ db: store.db, actor: admin, userId: leaver.id, input: { reason: "left the company", revokeTokens: true } });
    expect(disabled).toMatchObject({ disabled: true, tokensRevoked: 2 });
    for (const token of leaverTokens) expect(await works(token)).toBe(false);
    expect(await works(othersToken)).toBe(true);
    expect(await live(leaver.email)).toBe(0);
    const [entry] = await audit("user.disable", leaver.email);
    expect((entry!.details.tokensRevoked as { name: string }[]).map((t) => t.name).sort()).toEqual(["gone-a", "gone-b"]);
  });

  it("never disables oneself or the last admin who can sign in, nor demotes them, and is for admins only", async () => {
    const db = store.db;
    await db.execute(sql`delete from auth_users where role = 'admin'`);
    const only = await createUser({ db, actor: adminActor("setup@weir.test"), input: { email: "only-admin@weir.test", role: "admin" } });
    const other = await createUser({ db, actor: adminActor("setup@weir.test"), input: { email: "other-admin@weir.test", role: "admin" } });
    await expect(disableUser({ db, actor: adminActor(only.email), userId: only.id, input: { reason: "x" } })).rejects.toThrow("your own account");
    await expect(setUserPassword({ db, actor: adminActor(only.email), userId: only.id, reason: "x" })).rejects.toThrow("Account page");
    await disableUser({ db, actor: adminActor(only.email), userId: other.id, input: { reason: "two admins are one too many" } });
    // `other` cannot sign in any more: `only` is the last admin who can, and stays one.
    await expect(disableUser({ db, actor: adminActor("someone@weir.test"), userId: only.id, input: { reason: "x" } })).rejects.toBeInstanceOf(ConflictError);
    await expect(changeUserRole({ db, actor: adminActor("someone@weir.test"), userId: only.id, input: { role: "viewer" } })).rejects.toBeInstanceOf(ConflictError);
    const operator: Actor = { id: "op@weir.test", role: "operator", via: "session", signedInAt: new Date() };
    await expect(disableUser({ db, actor: operator, userId: other.id, input: { reason: "x" } })).rejects.toBeInstanceOf(ForbiddenError);
    await expect(setUserPassword({ db, actor: operator, userId: other.id, reason: "x" })).rejects.toBeInstanceOf(ForbiddenError);
  });

  it("needs a recent sign-in to disable or reset from a session", async () => {
    const user = await signedInUser(store.db, "viewer");
    const id = await idOf(user.email);
    const stale: Actor = { id: "stale@weir.test", role: "admin", via: "session", signedInAt: new Date(Date.now() - 86_400_000) };
    await expect(disableUser({ db: store.db, actor: stale, userId: id, input: { reason: "x" } })).rejects.toMatchObject({ code: "reauth_required" });
    await expect(setUserPassword({ db: store.db, actor: stale, userId: id, reason: "x" })).rejects.toMatchObject({ code: "reauth_required" });
  });
});
