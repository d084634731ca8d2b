import { sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, type TestDatabase } from "@/test/test-db";
import { claim, claimMany } from "./claim";
import { releaseClaim } from "./release";
import { setGroupTtl } from "./set-group-ttl";
import { ageRecords, routeCaller, uniqueGroup } from "./test-helpers";

const actor = { id: "test", role: "admin" as const };
let store: TestDatabase;
let call: Awaited<ReturnType<typeof routeCaller>>;

beforeAll(async () => {
  store = await createTestDatabase();
  call = await routeCaller(store);
});

async function group(ttlSeconds: number, slide = false): Promise<string> {
  const id = uniqueGroup();
  await setGroupTtl(store.db, { consumerGroup: id, ttlSeconds, slide, reason: "test", actor });
  return id;
}

const claimedAt = async (consumerGroup: string, messageId: string) =>
  (
    await store.db.execute<{ at: string }>(
      sql`select floor(extract(epoch from claimed_at) * 1000)::bigint::text as at from window_records where consumer_group = ${consumerGroup} and message_id = ${messageId}`,
    )
  ).rows[0]?.at;

describe("why a claim is a duplicate", () => {
  it("answers when the matched window started and ends, single and batch", async () => {
    const g = await group(3600);
    const first = await claim(store.db, { consumerGroup: g, messageId: "m-1" });
    expect(first.decision).toBe("new");
    await ageRecords(store.db, g, 600);
    const started = new Date(Date.parse(first.windowStartedAt!) - 600_000).toISOString();
    const ends = new Date(Date.parse(started) + 3_600_000).toISOString();
    expect(await claim(store.db, { consumerGroup: g, messageId: "m-1" })).toMatchObject({ decision: "duplicate", windowStartedAt: started, windowEndsAt: ends });
    const [dup, fresh, again] = await claimMany(store.db, [
      { consumerGroup: g, messageId: "m-1" },
      { consumerGroup: g, messageId: "m-2" },
      { consumerGroup: g, messageId: "m-2" },
    ]);
    expect(dup).toMatchObject({ decision: "duplicate", windowStartedAt: started, windowEndsAt: ends });
    expect(fresh!.decision).toBe("new");
    expect(again).toMatchObject({ decision: "duplicate", windowStartedAt: fresh!.windowStartedAt, windowEndsAt: fresh!.windowEndsAt });
    expect(Date.parse(fresh!.windowEndsAt!) - Date.parse(fresh!.windowStartedAt!)).toBe(3_600_000);
  });

  it("answers the winner's window for every loser of concurrent first claims", async () => {
    const g = await group(3600);
    const outcomes = await Promise.all(Array.from({ length: 8 }, () => claim(store.db, { consumerGroup: g, messageId: "race" })));
    const winner = outcomes.filter((o) => o.decision === "new");
    expect(winner).toHaveLength(1);
    for (const loser of outcomes.filter((o) => o.decision === "duplicate")) expect(loser.windowStartedAt).toBe(winner[0]!.windowStartedAt);
  });
});

describe("releasing a claim", () => {
  it("forgets it, so the redelivery is claimed again (not counted late)", async () => {
    const g = await group(3600);
    const first = await claim(store.db, { consumerGroup: g, messageId: "m-1" });
    const released = await releaseClaim(store.db, { consumerGroup: g, messageId: "m-1" });
    expect(released).toEqual({ consumerGroup: g, messageId: "m-1", released: true, reason: "released", claimedAt: first.windowStartedAt });
    const redelivery = await claim(store.db, { consumerGroup: g, messageId: "m-1" });
    expect(redelivery.decision).toBe("new");
    expect(redelivery.lateRedelivery).toBeUndefined();
  });

  it("answers clearly when there is nothing to release: absent, expired, or released twice", async () => {
    const g = await group(60);
    expect(await releaseClaim(store.db, { consumerGroup: g, messageId: "never" })).toEqual({
      consumerGroup: g,
      messageId: "never",
      released: false,
      reason: "absent",
      claimedAt: null,
    });
    await claim(store.db, { consumerGroup: g, messageId: "old" });
    await ageRecords(store.db, g, 120);
    expect(await releaseClaim(store.db, { consumerGroup: g, messageId: "old" })).toMatchObject({ released: false, reason: "expired" });
    expect(await claimedAt(g, "old")).toBeDefined();
    await claim(store.db, { consumerGroup: g, messageId: "twice" });
    expect((await releaseClaim(store.db, { consumerGroup: g, messageId: "twice" })).released).toBe(true);
    expect(await releaseClaim(store.db, { consumerGroup: g, messageId: "twice" })).toMatchObject({ released: false, reason: "absent" });
  });

  it("with claimedAt, never releases a later claim another consumer made", async () => {
    const g = await group(60);
    const mine = await claim(store.db, { consumerGroup: g, messageId: "m-1" });
    await ageRecords(store.db, g, 120);
    // My claim as the store now has it, two minutes back; the two real claims may share a millisecond.
    const myClaimedAt = new Date(Date.parse(mine.windowStartedAt!) - 120_000).toISOString();
    const theirs = await claim(store.db, { consumerGroup: g, messageId: "m-1" });
    expect(theirs.lateRedelivery).toBeDefined();
    await expect(releaseClaim(store.db, { consumerGroup: g, messageId: "m-1", claimedAt: myClaimedAt })).rejects.toMatchObject({
      status: 409,
      details: { claimedAt: theirs.windowStartedAt },
    });
    expect((await claim(store.db, { consumerGroup: g, messageId: "m-1" })).decision).toBe("duplicate");
    expect((await releaseClaim(store.db, { consumerGroup: g, messageId: "m-1", claimedAt: theirs.windowStartedAt! })).released).toBe(true);
  });

  it("in library mode, rolls back with the caller's transaction", async () => {
    const g = await group(3600);
    await claim(store.db, { consumerGroup: g, messageId: "m-1" });
    await store.db
      .transaction(async (tx) => {
        expect((await releaseClaim(tx, { consumerGroup: g, messageId: "m-1" })).released).toBe(true);
        throw new Error("business write failed");
      })
      .catch(() => undefined);
    expect((await claim(store.db, { consumerGroup: g, messageId: "m-1" })).decision).toBe("duplicate");
  });

  it("over the API: release, then the redelivery is new; bad input names the field", async () => {
    const g = uniqueGroup();
    expect((await call("POST", "/api/v1/claim", { consumerGroup: g, messageId: "m-1" })).body.decision).toBe("new");
    const released = await call("POST", "/api/v1/claim/release", { consumerGroup: g, messageId: "m-1" });
    expect(released).toMatchObject({ status: 200, body: { released: true, reason: "released" } });
    expect((await call("POST", "/api/v1/claim", { consumerGroup: g, messageId: "m-1" })).body.decision).toBe("new");
    const unknown = await call("POST", "/api/v1/claim/release", { consumerGroup: g, messageId: "nope" });
    expect(unknown).toMatchObject({ status: 200, body: { released: false, reason: "absent", claimedAt: null } });
    const bad = await call("POST", "/api/v1/claim/release", { consumerGroup: g, messageId: "m-1", claimedAt: "yesterday" });
    expect(bad.status).toBe(400);
    expect(bad.body.error.field).toBe("claimedAt");
  });

  it("is not audited: a machine action on one key, like an idempotency release", async () => {
    const g = uniqueGroup();
    await claim(store.db, { consumerGroup: g, messageId: "m-1" });
    await releaseClaim(store.db, { consumerGroup: g, messageId: "m-1" });
    const audited = await store.db.execute<{ n: number }>(sql`select count(*)::int as n from audit_log where target = ${`consumer_group:${g}`}`);
    expect(Number(audited.rows[0]!.n)).toBe(0);
  });
});

describe("sliding windows", () => {
  it("keeps a message redelivered every 50 minutes under a 1 h window a duplicate", async () => {
    const g = await group(3600, true);
    const fixed = await group(3600, false);
    for (const id of [g, fixed]) expect((await claim(store.db, { consumerGroup: id, messageId: "m-1" })).decision).toBe("new");
    const decisions: Record<string, string[]> = { [g]: [], [fixed]: [] };
    for (let redelivery = 0; redelivery < 3; redelivery++) {
      for (const id of [g, fixed]) {
        await ageRecords(store.db, id, 50 * 60);
        decisions[id]!.push((await claim(store.db, { consumerGroup: id, messageId: "m-1" })).decision);
      }
    }
    expect(decisions[g]).toEqual(["duplicate", "duplicate", "duplicate"]);
    // Without sliding the window ran out after the first hour: 50, 100 (new), 150 (dup) minutes.
    expect(decisions[fixed]).toEqual(["duplicate", "new", "duplicate"]);
  });

  it("slides in the batch statement too, and answers the window the duplicate matched", async () => {
    const g = await group(3600, true);
    await claimMany(store.db, [{ consumerGroup: g, messageId: "b-1" }]);
    await ageRecords(store.db, g, 50 * 60);
    const before = await claimedAt(g, "b-1");
    const [dup] = await claimMany(store.db, [{ consumerGroup: g, messageId: "b-1" }, { consumerGroup: g, messageId: "b-2" }]);
    expect(dup!.decision).toBe("duplicate");
    expect(Date.parse(dup!.windowStartedAt!)).toBe(Number(before));
    expect(await claimedAt(g, "b-1")).not.toBe(before);
    await ageRecords(store.db, g, 50 * 60);
    expect((await claimMany(store.db, [{ consumerGroup: g, messageId: "b-1" }]))[0]!.decision).toBe("duplicate");
  });

  it("batches sliding the same keys in opposite orders wait for each other, never deadlock", async () => {
    const g = await group(3600, true);
    const keys = Array.from({ length: 300 }, (_, i) => ({ consumerGroup: g, messageId: `k-${String(i).padStart(3, "0")}` }));
    await claimMany(store.db, keys);
    const reversed = [...keys].reverse();
    for (let round = 0; round < 10; round++) {
      const [up, down] = await Promise.all([claimMany(store.db, keys), claimMany(store.db, reversed)]);
      expect([...up, ...down].every((o) => o.decision === "duplicate")).toBe(true);
    }
  });

  it("a duplicate in a non-sliding group still writes nothing", async () => {
    const g = await group(3600, false);
    await claim(store.db, { consumerGroup: g, messageId: "m-1" });
    const xmin = async () =>
      (await store.db.execute<{ x: string }>(sql`select xmin::text as x from window_records where consumer_group = ${g}`)).rows[0]!.x;
    const before = await xmin();
    await claim(store.db, { consumerGroup: g, messageId: "m-1" });
    await claimMany(store.db, [{ consumerGroup: g, messageId: "m-1" }]);
    expect(await xmin()).toBe(before);
  });

  it("is set through the group settings verb, audited, and kept when omitted", async () => {
    const g = await group(3600);
    const turned = await setGroupTtl(store.db, { consumerGroup: g, ttlSeconds: 3600, slide: true, reason: "redelivered hourly", actor });
    expect(turned).toMatchObject({ changed: true, change: null, group: { slide: true } });
    const kept = await setGroupTtl(store.db, { consumerGroup: g, ttlSeconds: 7200, reason: "longer", actor });
    expect(kept.group.slide).toBe(true);
    type AuditRow = { action: string; details: { oldSlide: boolean; newSlide: boolean } };
    const audit = await store.db.execute<AuditRow>(sql`select action, details from audit_log where target = ${`consumer_group:${g}`} order by id`);
    expect(audit.rows.map((r: AuditRow) => [r.action, r.details.oldSlide, r.details.newSlide])).toEqual([
      ["consumer_group.create", false, false],
      ["consumer_group.slide_change", false, true],
      ["consumer_group.ttl_change", true, true],
    ]);
    const api = await call("PUT", `/api/v1/consumer-groups/${g}`, { ttlSeconds: 7200, slide: false, reason: "fixed windows again" });
    expect(api).toMatchObject({ status: 200, body: { group: { slide: false }, change: null } });
    const bad = await call("PUT", `/api/v1/consumer-groups/${g}`, { ttlSeconds: 7200, slide: "yes", reason: "x" });
    expect(bad.status).toBe(400);
    expect(bad.body.error.field).toBe("slide");
  });
});
