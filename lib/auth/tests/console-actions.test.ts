import { sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import type { ConsoleRole } from "@/lib/auth/actor";
import { runWithRequestHeaders } from "@/lib/auth/request-headers";
import { browserHeaders, signedInUser, type TestUser } from "@/test/auth-fixtures";
import { createTestDatabase, type TestDatabase } from "@/test/test-db";

/**
 * Every server action in lib/actions, called the way Next calls it (headers
 * with Next-Action, Origin and the session cookie of a real signed-in user)
 * against a real database. Actions are found by globbing, so a new action
 * without a row below fails this test.
 */
type Expectation = { role: ConsoleRole | "public"; destructive?: true };

const EXPECTED: Record<string, Expectation> = {
  "account.changePasswordAction": { role: "viewer" },
  "auth.signIn": { role: "public" },
  "auth.signOut": { role: "public" },
  "erase.previewEraseAction": { role: "operator" },
  "erase.eraseAction": { role: "operator", destructive: true },
  "explain.explainAction": { role: "viewer" },
  "groups.previewTtlAction": { role: "operator" },
  "groups.changeTtlAction": { role: "operator", destructive: true },
  "idempotency.releaseKeyAction": { role: "operator" },
  "idempotency.previewStuckAction": { role: "operator" },
  "idempotency.releaseStuckAction": { role: "operator", destructive: true },
  "journal.setJournalLevelAction": { role: "operator" },
  "replay.previewReplayResetAction": { role: "operator" },
  "replay.startReplayResetAction": { role: "operator", destructive: true },
  "reset.previewResetAction": { role: "operator" },
  "reset.startResetAction": { role: "operator", destructive: true },
  "reset.undoResetAction": { role: "operator", destructive: true },
  "services.previewServiceSettingsAction": { role: "admin" },
  "services.saveServiceSettingsAction": { role: "admin", destructive: true },
  "tokens.createToken": { role: "admin", destructive: true },
  "tokens.revokeToken": { role: "admin", destructive: true },
  "users.createUserAction": { role: "admin", destructive: true },
  "users.changeUserRoleAction": { role: "admin", destructive: true },
  "users.disableUserAction": { role: "admin", destructive: true },
  "users.resetUserPasswordAction": { role: "admin", destructive: true },
};

const RANK = { viewer: 1, operator: 2, admin: 3 } as const;
type Action = (...args: unknown[]) => Promise<unknown>;
const modules = import.meta.glob<Record<string, unknown>>("/lib/actions/*.ts");

let store: TestDatabase;
const users = {} as Record<ConsoleRole, TestUser>;
const actions: [string, Action][] = [];

beforeAll(async () => {
  store = await createTestDatabase();
  // The actions reach the store through db/client's process-wide handle: point it at this file's database.
  (globalThis as Record<symbol, { promise?: Promise<unknown> }>)[Symbol.for("weir.store")]!.promise = Promise.resolve(store);
  for (const role of ["viewer", "operator", "admin"] as const) users[role] = await signedInUser(store.db, role);
  for (const [file, load] of Object.entries(modules)) {
    const area = file.split("/").at(-1)!.replace(/\.ts$/, "");
    for (const [name, value] of Object.entries(await load())) if (typeof value === "function") actions.push([`${area}.${name}`, value as Action]);
  }
});

/** Calls an action as Next would; redirects (sign-in, sign-out) come back as { redirect }. */
async function call(action: Action, name: string, headers: Headers): Promise<{ ok?: boolean; code?: string; redirect?: string }> {
  const args = name === "auth.signIn" ? [null, new FormData()] : [{}];
  try {
    return ((await runWithRequestHeaders(headers, () => action(...args))) ?? {}) as { ok?: boolean; code?: string };
  } catch (err) {
    const digest = (err as { digest?: string }).digest;
    if (typeof digest === "string" && digest.startsWith("NEXT_REDIRECT")) return { redirect: digest.split(";")[2] };
    return { code: (err as { code?: string }).code ?? (err as Error).name };
  }
}

const asUser = (user: TestUser | null, extra: Record<string, string> = {}) =>
  browserHeaders({ "next-action": "test", ...(user ? { cookie: user.cookie } : {}), ...extra });
const DENIED = ["unauthorized", "forbidden"];

describe("server actions", () => {
  it("has an expectation for every action, and no stale one", () => {
    expect(actions.map(([name]) => name).sort()).toEqual(Object.keys(EXPECTED).sort());
  });

  it("allows each action to exactly the roles at or above its own, and no one signed out", async () => {
    for (const [name, action] of actions) {
      const { role } = EXPECTED[name]!;
      if (role === "public") continue;
      expect((await call(action, name, asUser(null))).code, `${name} anonymous`).toBe("unauthorized");
      for (const who of ["viewer", "operator", "admin"] as const) {
        const result = await call(action, name, asUser(users[who]));
        const label = `${name} as ${who}: ${JSON.stringify(result)}`;
        if (RANK[who] >= RANK[role]) expect(DENIED, label).not.toContain(result.code);
        else expect(result.code, label).toBe("forbidden");
      }
    }
  });

  it("refuses every action whose Origin is missing, null or another site's, before anything else", async () => {
    for (const [name, action] of actions) {
      for (const origin of [undefined, "null", "https://evil.example"]) {
        const headers = asUser(users.admin);
        if (origin === undefined) headers.delete("origin");
        else headers.set("origin", origin);
        const result = await call(action, name, headers);
        expect(result.code, `${name} with Origin ${origin}`).toBe("forbidden");
        expect(result.redirect, name).toBeUndefined();
      }
    }
  });

  it("asks for a fresh sign-in before destructive actions once the sign-in is 15 minutes old", async () => {
    const stale = await signedInUser(store.db, "admin");
    await store.db.execute(sql`update auth_sessions s set created_at = now() - interval '16 minutes' from auth_users u where u.id = s.user_id and u.email = ${stale.email}`);
    for (const [name, action] of actions) {
      if (!EXPECTED[name]!.destructive) continue;
      const result = await call(action, name, asUser(stale));
      expect(result.code, name).toBe("reauth_required");
    }
  });

  it("signs in through the action, refusing a wrong password with one message", async () => {
    const signIn = actions.find(([name]) => name === "auth.signIn")![1];
    const form = (email: string, password: string, next = "/tokens") => {
      const data = new FormData();
      data.set("email", email);
      data.set("password", password);
      data.set("next", next);
      return data;
    };
    const wrong = (await runWithRequestHeaders(asUser(null), () => signIn(null, form(users.viewer.email, "nope")))) as { code: string; message: string };
    expect(wrong).toMatchObject({ ok: false, code: "unauthorized", message: "wrong email or password" });
    const right = await runWithRequestHeaders(asUser(null), () => signIn(null, form(users.viewer.email, users.viewer.password, "//evil.example"))).catch((err: { digest?: string }) => err.digest);
    expect(right).toMatch(/^NEXT_REDIRECT;[a-z]+;\/;/); // an off-site next is replaced by "/"
  });
});
