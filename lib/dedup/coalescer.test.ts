import { setTimeout as sleep } from "node:timers/promises";
import { describe, expect, it } from "vitest";
import type { DbOrTx } from "@/db/types";
import { OverloadedError, StoreUnavailableError } from "@/lib/errors";
import { StatementCoalescer } from "./coalescer";

const NO_DB = async () => ({}) as DbOrTx;

/** A decide step whose statements each take `ms`, answering every item with its own value. */
const takes = (ms: number) => async (_db: DbOrTx, items: readonly number[]) => {
  await sleep(ms);
  return items.map((i) => i * 10);
};

describe("StatementCoalescer admission", () => {
  it("turns new items away with `overloaded` once the oldest has waited past shedAfterMs, and takes them again when it catches up", async () => {
    const coalescer = new StatementCoalescer(NO_DB, takes(25), { maxInFlight: 1, maxBatch: 1, shedAfterMs: 60 });
    const accepted = Array.from({ length: 8 }, (_, i) => coalescer.submit(i, `k${i}`));
    await sleep(100);
    // Statements keep completing, one every 25 ms, but the head of the queue has waited > 60 ms.
    const refused = await coalescer.submit(99, "k99").then(
      () => undefined,
      (err: unknown) => err,
    );
    expect(refused).toBeInstanceOf(OverloadedError);
    expect((refused as OverloadedError).status).toBe(503);
    expect((refused as OverloadedError).retryAfterSeconds).toBe(1);
    // What was let in is still decided, in full.
    expect(await Promise.all(accepted)).toEqual([0, 10, 20, 30, 40, 50, 60, 70]);
    // Caught up: the next item is decided again.
    expect(await coalescer.submit(5, "k5")).toBe(50);
  });

  it("while behind, refuses the heaviest caller's items and still takes a light caller's", async () => {
    const coalescer = new StatementCoalescer(NO_DB, takes(25), { maxInFlight: 1, maxBatch: 1, shedAfterMs: 60 });
    const flood = Array.from({ length: 8 }, (_, i) => coalescer.submit(i, `f${i}`, "token:flood"));
    await sleep(100);
    await expect(coalescer.submit(99, "f99", "token:flood")).rejects.toBeInstanceOf(OverloadedError);
    expect(await coalescer.submit(7, "steady", "token:steady")).toBe(70);
    await Promise.all(flood);
  });

  it("says `store_unavailable` when no statement has answered for that long: the store, not the load", async () => {
    let release!: () => void;
    const stalled = new Promise<void>((resolve) => (release = resolve));
    const coalescer = new StatementCoalescer(
      NO_DB,
      async (_db, items: readonly number[]) => {
        await stalled;
        return items.map((i) => i);
      },
      { maxInFlight: 1, maxBatch: 1, shedAfterMs: 40 },
    );
    const first = coalescer.submit(1, "a");
    const second = coalescer.submit(2, "b");
    await sleep(80);
    await expect(coalescer.submit(3, "c")).rejects.toBeInstanceOf(StoreUnavailableError);
    release();
    expect(await Promise.all([first, second])).toEqual([1, 2]);
  });

  it("still says `store_unavailable` in the moment after a statement failed on the store, when none runs", async () => {
    const coalescer = new StatementCoalescer(
      NO_DB,
      async (): Promise<number[]> => {
        await sleep(80);
        throw new StoreUnavailableError(1);
      },
      { maxInFlight: 1, maxBatch: 1, shedAfterMs: 40 },
    );
    const first = coalescer.submit(1, "a");
    const second = coalescer.submit(2, "b").catch((err: unknown) => err);
    // The first statement fails after 80 ms, with "b" waiting since then; its caller asks again at
    // once, before the next statement starts.
    const asked = await first.catch(() => coalescer.submit(3, "c").catch((err: unknown) => err));
    expect(asked).toBeInstanceOf(StoreUnavailableError);
    expect(await second).toBeInstanceOf(StoreUnavailableError);
  });

  it("never sheds under load it keeps up with", async () => {
    const coalescer = new StatementCoalescer(NO_DB, takes(2), { maxInFlight: 2, maxBatch: 64, shedAfterMs: 500 });
    const answers: Promise<number>[] = [];
    for (let tick = 0; tick < 20; tick++) {
      for (let i = 0; i < 20; i++) answers.push(coalescer.submit(i, `${tick}-${i}`));
      await sleep(5);
    }
    const settled = await Promise.allSettled(answers);
    expect(settled.filter((s) => s.status === "rejected")).toEqual([]);
  });
});
