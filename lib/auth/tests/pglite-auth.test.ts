import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import type { Store } from "@/db/client";
import { embeddedTestStore } from "@/test/embedded-store";
import { SYSTEM_ACTOR } from "@/lib/auth/actor";
import { sessionActor } from "@/lib/auth/session-actor";
import { signInWithPassword } from "@/lib/auth/sign-in";
import { actorForToken } from "@/lib/auth/tokens/token-cache";
import { createApiToken } from "@/lib/auth/tokens/create-token";
import { createUser } from "@/lib/auth/users/create-user";
import { browserHeaders, cookieHeaderOf } from "@/test/auth-fixtures";

// The embedded store runs the same Better Auth adapter and the same audit trigger as PostgreSQL.
let store: Store;
embeddedTestStore("pglite-auth", (opened) => (store = opened));

describe("auth on the embedded store (PGlite)", () => {
  it("signs in through Better Auth's drizzle adapter and resolves the session", async () => {
    expect(store.kind).toBe("pglite");
    await createUser({ db: store.db, actor: SYSTEM_ACTOR, input: { email: "lite@weir.test", password: "embedded password", role: "operator" } });
    const { setCookie } = await signInWithPassword(store.db, { email: "lite@weir.test", password: "embedded password", headers: browserHeaders() });
    const actor = await sessionActor(store.db, browserHeaders({ cookie: cookieHeaderOf(setCookie) }));
    expect(actor).toMatchObject({ id: "lite@weir.test", role: "operator", via: "session" });
  });

  it("authenticates API tokens and keeps the audit log append-only", async () => {
    const { token } = await createApiToken({ db: store.db, actor: SYSTEM_ACTOR, input: { name: "lite", services: ["a"] } });
    expect(await actorForToken(store.db, token)).toMatchObject({ role: "service", via: "token", scopes: { services: ["a"] } });
    await expect(store.db.execute(sql`update audit_log set reason = 'x'`)).rejects.toThrow();
    await expect(store.db.execute(sql`delete from audit_log`)).rejects.toThrow();
    expect(Number((await store.db.execute(sql`select count(*) as n from audit_log`)).rows[0]!.n)).toBeGreaterThanOrEqual(2);
  });
});
