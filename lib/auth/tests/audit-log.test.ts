import { randomBytes } from "node:crypto";
import { readFileSync } from "node:fs";
import { sql } from "drizzle-orm";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sessionActor } from "@/lib/auth/session-actor";
import { createApiToken } from "@/lib/auth/tokens/create-token";
import { browserHeaders, signedInUser } from "@/test/auth-fixtures";
import { withAdmin } from "@/test/pg-admin";
import { createTestDatabase, type TestDatabase } from "@/test/test-db";

let store: TestDatabase;
const appRole = `weir_app_${randomBytes(4).toString("hex")}`;

beforeAll(async () => {
  store = await createTestDatabase();
});

afterAll(async () => {
  await store.pool!.query(`drop owned by "${appRole}"`).catch(() => undefined);
  await withAdmin((admin) => admin.query(`drop role if exists "${appRole}"`)).catch(() => undefined);
});

async function adminActor() {
  const user = await signedInUser(store.db, "admin");
  return (await sessionActor(store.db, browserHeaders({ cookie: user.cookie })))!;
}

describe("the audit log", () => {
  it("records a token creation in the same transaction as the token", async () => {
    const actor = await adminActor();
    const { details } = await createApiToken({ db: store.db, actor, input: { name: "audited", services: ["svc-a"], reason: "for the billing adapter" } });
    const rows = (await store.db.execute(sql`select actor, actor_role, action, target, affected, reason from audit_log where target = ${`token:${details.id}`}`)).rows;
    expect(rows).toEqual([{ actor: actor.id, actor_role: "admin", action: "token.create", target: `token:${details.id}`, affected: 1, reason: "for the billing adapter" }]);

    // When the audit row cannot be written, the token is not created either.
    await store.db.execute(sql`alter table audit_log add constraint no_token_audit check (action <> 'token.create') not valid`);
    try {
      await expect(createApiToken({ db: store.db, actor, input: { name: "unaudited" } })).rejects.toThrow();
      expect((await store.db.execute(sql`select 1 from api_tokens where name = 'unaudited'`)).rows).toHaveLength(0);
    } finally {
      await store.db.execute(sql`alter table audit_log drop constraint no_token_audit`);
    }
  });

  it("refuses UPDATE, DELETE and TRUNCATE, even for the table's owner", async () => {
    await createApiToken({ db: store.db, actor: await adminActor(), input: { name: "to tamper with" } });
    const owner = store.pool!;
    await expect(owner.query("update audit_log set reason = 'rewritten'")).rejects.toThrow(/append-only: UPDATE refused/);
    await expect(owner.query("delete from audit_log")).rejects.toThrow(/append-only: DELETE refused/);
    await expect(owner.query("truncate audit_log")).rejects.toThrow(/append-only: TRUNCATE refused/);
    expect(Number((await store.db.execute(sql`select count(*) as n from audit_log`)).rows[0]!.n)).toBeGreaterThan(0);
  });

  it("leaves the production role (db/roles/production-grants.sql) no way to change audit rows, and a statement timeout of its own", async () => {
    const grants = readFileSync("db/roles/production-grants.sql", "utf8").replaceAll("weir_app", appRole).replace(":app_password", "'test-only'");
    await store.pool!.query(grants);
    const url = new URL(store.url);
    url.username = appRole;
    url.password = "test-only";
    const app = new pg.Pool({ connectionString: url.toString(), max: 1 });
    try {
      // The timeouts weir cannot send through PgBouncer are the role's own (README "Scaling").
      expect((await app.query("show statement_timeout")).rows[0].statement_timeout).toBe("5s");
      await app.query("insert into audit_log (actor, actor_role, action, target) values ('app', 'admin', 'test.insert', 'x')");
      expect((await app.query("select count(*)::int as n from audit_log where action = 'test.insert'")).rows[0].n).toBe(1);
      for (const statement of [
        "update audit_log set reason = 'x'",
        "delete from audit_log",
        "truncate audit_log",
        "alter table audit_log disable trigger audit_log_no_update_or_delete",
        "drop trigger audit_log_no_update_or_delete on audit_log",
      ]) {
        await expect(app.query(statement), statement).rejects.toThrow(/permission denied|must be owner|append-only/);
      }
    } finally {
      await app.end();
    }
  });
});
