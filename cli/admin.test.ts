import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { checkMany } from "@/lib/dedup/last-seen/check";
import { createService } from "@/test/factories";
import { cliTestDatabase } from "./weir.fixture";

const { weir, count, store } = cliTestDatabase();

describe("weir users: disable and reset-password, the console's verbs", () => {
  it("disables a user (password cleared, audited with the reason), and a reset enables them with a new password shown once", { timeout: 180_000 }, async () => {
    const created = await weir(["users", "create", "--email", "Leaver@Weir.Test", "--role", "operator"]);
    expect(created.code, created.stderr).toBe(0);
    const disabled = await weir(["users", "disable", "--email", "leaver@weir.test", "--reason", "left the team"]);
    expect(disabled.code, disabled.stderr).toBe(0);
    expect(disabled.stdout).toContain("disabled leaver@weir.test");
    const enabled = sql`select count(*)::int as n from auth_accounts a join auth_users u on u.id = a.user_id where u.email = 'leaver@weir.test' and a.password is not null`;
    expect(await count(enabled)).toBe(0);
    expect(await count(sql`select count(*)::int as n from audit_log where action = 'user.disable' and target = 'user:leaver@weir.test' and reason = 'left the team'`)).toBe(1);

    const reset = await weir(["users", "reset-password", "--email", "leaver@weir.test", "--reason", "came back"]);
    expect(reset.code, reset.stderr).toBe(0);
    expect(reset.stdout).toMatch(/password \(shown once\): \S{24}/);
    expect(await count(enabled)).toBe(1);

    // The tokens the user created keep working unless --revoke-tokens says otherwise.
    await store().db.execute(sql`insert into api_tokens (id, name, role, token_hash, prefix, created_by) values ('cli-leaver-token', 'payments', 'service', 'cli-leaver-hash', 'weir_cli', 'leaver@weir.test')`);
    const again = await weir(["users", "disable", "--email", "leaver@weir.test", "--reason", "left for good", "--revoke-tokens"]);
    expect(again.code, again.stderr).toBe(0);
    expect(again.stdout).toContain("1 API token(s) they created revoked");
    expect(await count(sql`select count(*)::int as n from api_tokens where created_by = 'leaver@weir.test' and revoked_at is not null`)).toBe(1);

    const missing = await weir(["users", "disable", "--email", "nobody@weir.test", "--reason", "x"]);
    expect(missing.code).not.toBe(0);
    expect(missing.stderr).toContain("no user with email nobody@weir.test");
    const noReason = await weir(["users", "disable", "--email", "leaver@weir.test"]);
    expect(noReason.code).toBe(2);
  });
});

describe("weir reset --dry-run --csv", () => {
  it("writes the whole selection, as the console's download does, and changes nothing", { timeout: 120_000 }, async () => {
    const { db } = store();
    const serviceId = await createService(db, {}, "cli-reset-csv");
    const ids = Array.from({ length: 30 }, (_, i) => `ord-${String(i).padStart(2, "0")}`);
    await checkMany(db, ids.map((messageId) => ({ serviceId, messageId, payload: 1 })));
    const run = await weir(["reset", "--service", serviceId, "--prefix", "ord-", "--dry-run", "--csv", "-"]);
    expect(run.code, run.stderr).toBe(0);
    const lines = run.stdout.trimEnd().split("\r\n");
    expect(lines[0]).toBe('"message_id","at","version"');
    expect(lines.slice(1).map((l) => l.split(",")[0])).toEqual(ids.map((id) => `"${id}"`));
    expect(await count(sql`select count(*)::int as n from last_seen where service_id = ${serviceId}`)).toBe(30);
    const notDry = await weir(["reset", "--service", serviceId, "--prefix", "ord-", "--csv", "-"]);
    expect(notDry.code).toBe(2);
  });
});

describe("weir tokens list", () => {
  it("names an expired token expired, and when a live one expires", { timeout: 120_000 }, async () => {
    const created = await weir(["tokens", "create", "--name", "short-lived", "--all", "--expires-in-days", "30"]);
    expect(created.code, created.stderr).toBe(0);
    const id = /token (tok_\S+)/.exec(created.stderr)![1]!;
    const expired = await weir(["tokens", "create", "--name", "past", "--all", "--expires-in-days", "1"]);
    const pastId = /token (tok_\S+)/.exec(expired.stderr)![1]!;
    await store().db.execute(sql`update api_tokens set expires_at = now() - interval '1 day' where id = ${pastId}`);
    const listed = await weir(["tokens", "list"]);
    expect(listed.stdout.split("\n").find((l) => l.startsWith(id))).toMatch(/\tactive, expires \d{4}-/);
    expect(listed.stdout.split("\n").find((l) => l.startsWith(pastId))).toMatch(/\texpired \d{4}-/);
  });
});
