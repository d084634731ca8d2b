import { sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { check } from "@/lib/dedup/last-seen/check";
import { revertCheck } from "@/lib/dedup/last-seen/revert";
import { claim } from "@/lib/dedup/window/claim";
import { createService, uniqueId } from "@/test/factories";
import { createTestDatabase, type TestDatabase } from "@/test/test-db";

// Library mode as docs/library-mode.md describes it: the service's own table lives in
// weir's database and the claim runs in the same transaction as the business write.

let store: TestDatabase;

beforeAll(async () => {
  store = await createTestDatabase();
  await store.db.execute(sql`create table payouts (id bigserial primary key, message_id text not null, amount numeric not null)`);
});

const payouts = async (messageId: string) =>
  Number((await store.db.execute<{ n: number }>(sql`select count(*)::int as n from payouts where message_id = ${messageId}`)).rows[0]!.n);

/** What a consumer does per message: claim, and pay out only when the claim is new, in one transaction. */
async function payOut(consumerGroup: string, messageId: string, fail = false): Promise<"paid" | "duplicate"> {
  return store.db.transaction(async (tx) => {
    const claimed = await claim(tx, { consumerGroup, messageId });
    if (claimed.decision === "duplicate") return "duplicate";
    await tx.execute(sql`insert into payouts (message_id, amount) values (${messageId}, 10)`);
    if (fail) throw new Error("bank API refused");
    return "paid";
  });
}

describe("library mode", () => {
  it("commits the claim with the business write: a redelivery is a duplicate", async () => {
    const group = uniqueId("payouts");
    expect(await payOut(group, "P-1")).toBe("paid");
    expect(await payOut(group, "P-1")).toBe("duplicate");
    expect(await payouts("P-1")).toBe(1);
  });

  it("rolls the claim back with a failed business write: the retry claims it again", async () => {
    const group = uniqueId("payouts");
    await expect(payOut(group, "P-2", true)).rejects.toThrow("bank API refused");
    expect(await payouts("P-2")).toBe(0);
    expect(await payOut(group, "P-2")).toBe("paid");
    expect(await payouts("P-2")).toBe(1);
  });

  it("makes a concurrent delivery wait for the first transaction, then decide on its outcome", async () => {
    const group = uniqueId("payouts");
    for (const outcome of ["rollback", "commit"] as const) {
      const messageId = `P-3-${outcome}`;
      let finishFirst!: () => void;
      const held = new Promise<void>((resolve) => (finishFirst = resolve));
      let firstClaimed!: () => void;
      const claimedSignal = new Promise<void>((resolve) => (firstClaimed = resolve));
      const first = store.db
        .transaction(async (tx) => {
          expect((await claim(tx, { consumerGroup: group, messageId })).decision).toBe("new");
          await tx.execute(sql`insert into payouts (message_id, amount) values (${messageId}, 10)`);
          firstClaimed();
          await held;
          if (outcome === "rollback") throw new Error("crashed before commit");
        })
        .catch(() => undefined);
      await claimedSignal;
      const second = payOut(group, messageId);
      await new Promise((resolve) => setTimeout(resolve, 100));
      finishFirst();
      await first;
      expect(await second).toBe(outcome === "rollback" ? "paid" : "duplicate");
      expect(await payouts(messageId)).toBe(1);
    }
  });

  it("works the same for last-seen checks in the service's transaction", async () => {
    const serviceId = await createService(store.db);
    await expect(
      store.db.transaction(async (tx) => {
        expect((await check(tx, { serviceId, messageId: "A", payload: { v: 1 } })).decision).toBe("new");
        throw new Error("projection write failed");
      }),
    ).rejects.toThrow("projection write failed");
    const again = await store.db.transaction((tx) => check(tx, { serviceId, messageId: "A", payload: { v: 1 } }));
    expect(again).toMatchObject({ decision: "new", version: 1 });
  });

  it("says what a duplicate matched, and takes a check back when a side effect outside the transaction failed", async () => {
    const serviceId = await createService(store.db);
    const actor = { id: "library:payments", role: "service" as const };
    const first = await check(store.db, { serviceId, messageId: "B", payload: { v: 1 } });
    const changed = await check(store.db, { serviceId, messageId: "B", payload: { v: 2 } });
    expect(await check(store.db, { serviceId, messageId: "B", payload: { v: 2 } })).toMatchObject({ decision: "duplicate", version: 2, acceptedAt: changed.acceptedAt });
    // A revert inside the caller's transaction rolls back with it.
    await expect(
      store.db.transaction(async (tx) => {
        await revertCheck({ db: tx, actor, input: { serviceId, messageId: "B", version: 2 } });
        throw new Error("changed my mind");
      }),
    ).rejects.toThrow("changed my mind");
    expect((await check(store.db, { serviceId, messageId: "B", payload: { v: 2 } })).decision).toBe("duplicate");
    expect(await revertCheck({ db: store.db, actor, input: { serviceId, messageId: "B", version: 2 } })).toMatchObject({ version: 1, hash: first.hash });
    expect(await check(store.db, { serviceId, messageId: "B", payload: { v: 1 } })).toMatchObject({ decision: "duplicate", version: 1 });
  });
});
