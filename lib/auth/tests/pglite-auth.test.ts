import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openStore, type Store } from "@/db/client";
import { storeConfigFromEnv } from "@/db/config";
import { SYSTEM_ACTOR } from "@/lib/auth/actor";
import { sessionActor } from "@/lib/auth/session-actor";
import { signInWithPassword } from "@/lib/auth/sign-in";
import { actorForToken } from "@/lib/auth/tokens/token-cache";
import { createApiToken } from "@/lib/auth/tokens/create-token";
import { createUser } from "@/lib/auth/users/create-user";
import { browserHeaders, cookieHeaderOf } from "@/test/auth-fixtures";

// The embedded store runs the same Better Auth adapter and the same audit trigger as PostgreSQL.
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "weir-pglite-auth-"));
let store: Store;

beforeAll(async () => {
  store = await openStore({ ...storeConfigFromEnv(), databaseUrl: undefined, dataDir: path.join(dataDir, "store") });
}, 60_000);
afterAll(async () => {
  await store.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

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
