import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { checkMany } from "@/lib/dedup/last-seen/check";
import { keyHashOf } from "@/lib/erase/erase-keys";
import { createService } from "@/test/factories";
import { cliTestDatabase } from "./weir.fixture";

const { store, weir, count } = cliTestDatabase();

describe("weir erase", () => {
  it("previews, needs a reason and the typed key, erases and audits the key's hash only", async () => {
    const serviceId = await createService(store().db, { historyDepth: 2 });
    await checkMany(store().db, ["alice@example.com", "bob@example.com"].map((messageId) => ({ serviceId, messageId, payload: { n: 1 } })));
    const key = "alice@example.com";

    const usage = await weir(["erase", "--service", serviceId]);
    expect(usage.code).toBe(2);
    expect(usage.stderr).toContain("--key <id> (one key) or --all");
    const dry = await weir(["erase", "--service", serviceId, "--key", key, "--dry-run"]);
    expect(dry.code).toBe(0);
    expect(dry.stdout).toMatch(/last_seen\t1/);
    expect(dry.stdout).toMatch(/payload_versions\t1/);
    expect((await weir(["erase", "--service", serviceId, "--key", key, "--confirm", key])).code).toBe(2);
    const unconfirmed = await weir(["erase", "--service", serviceId, "--key", key, "--reason", "GDPR"]);
    expect(unconfirmed.code).toBe(4);
    expect(unconfirmed.stderr).toContain("type the key");

    const done = await weir(["erase", "--service", serviceId, "--key", key, "--reason", "GDPR 118", "--confirm", key, "--actor", "dpo"]);
    expect(done.code).toBe(0);
    expect(done.stdout).toContain(keyHashOf(key));
    expect(await count(sql`select count(*)::int as n from last_seen where service_id = ${serviceId}`)).toBe(1);
    expect(await count(sql`select count(*)::int as n from audit_log where actor = 'cli:dpo' and action = 'erase.key' and details->>'keyHash' = ${keyHashOf(key)}`)).toBe(1);

    const all = await weir(["erase", "--service", serviceId, "--all", "--reason", "tenant left", "--confirm", serviceId]);
    expect(all.code).toBe(0);
    expect(await count(sql`select count(*)::int as n from last_seen where service_id = ${serviceId}`)).toBe(0);
  }, 120_000);

  it("sets and removes an age limit, audited; cleanup runs the retention job", async () => {
    const serviceId = await createService(store().db, { historyDepth: 2 });
    const set = await weir(["retention", "--service", serviceId, "--max-age", "86400", "--reason", "keep payloads a day"]);
    expect(set.code, set.stderr).toBe(0);
    expect(set.stdout).toContain("removed after 86400 s (was none)");
    expect(await count(sql`select payload_retention_seconds as n from services where id = ${serviceId}`)).toBe(86_400);
    expect((await weir(["retention", "--service", serviceId, "--max-age", "soon", "--reason", "x"])).code).toBe(2);
    const cleanup = await weir(["cleanup"]);
    expect(cleanup.code).toBe(0);
    expect(cleanup.stdout).toMatch(/retention: removed 0 payload versions, 0 stored responses and \d+ per-minute stats/);
  }, 120_000);
});
