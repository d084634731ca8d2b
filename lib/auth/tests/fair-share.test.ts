import { describe, expect, it } from "vitest";
import { FairShare, ceilingOf, defaultShare } from "../fair-share";

const take = (pool: FairShare, holder: string, n: number, own?: number) => Array.from({ length: n }, () => pool.tryAcquire(holder, own));

describe("a pool shared per credential", () => {
  it("gives each holder a quarter of the pool by default (at least 8, at most the pool)", () => {
    expect(defaultShare(512)).toBe(128);
    expect(defaultShare(20)).toBe(8);
    expect(defaultShare(3)).toBe(3);
    expect(ceilingOf(512)).toBe(576);
  });

  it("refuses a holder at its share while the pool has room, and admits the others", () => {
    const pool = new FairShare({ capacity: () => 32 });
    expect(take(pool, "flood", 9)).toEqual([...Array(8).fill("admitted"), "over_share"]);
    expect(pool.tryAcquire("steady")).toBe("admitted");
    expect(pool.heaviest()).toBe(8);
    pool.release("flood");
    expect(pool.tryAcquire("flood")).toBe("admitted");
  });

  it("lets a holder's own share replace the default, higher or lower", () => {
    const pool = new FairShare({ capacity: () => 32 });
    expect(take(pool, "replay", 13, 12).at(-1)).toBe("over_share");
    expect(pool.heldBy("replay")).toBe(12);
    expect(take(pool, "small", 3, 2)).toEqual(["admitted", "admitted", "over_share"]);
  });

  it("when the pool is full, sheds the heaviest holder and admits a light one up to the ceiling", () => {
    const pool = new FairShare({ capacity: () => 16 });
    take(pool, "a", 8);
    take(pool, "b", 8);
    expect(pool.total).toBe(16);
    // Full: a and b hold more than 16 / 3 each, the newcomer holds nothing.
    expect(pool.tryAcquire("a")).toBe("full");
    expect(pool.tryAcquire("c")).toBe("admitted");
    expect(pool.tryAcquire("d")).toBe("admitted");
    // The ceiling (16 + 2) is reached: nobody else gets in, light or not.
    expect(pool.tryAcquire("e")).toBe("full");
    expect(pool.total).toBe(ceilingOf(16));
    pool.release("a");
    pool.release("a");
    pool.release("c");
    expect(pool.tryAcquire("e")).toBe("admitted");
  });

  it("follows a pool that shrinks (an adaptive limit): the default share shrinks with it", () => {
    let capacity = 64;
    const pool = new FairShare({ capacity: () => capacity });
    expect(take(pool, "a", 16).every((a) => a === "admitted")).toBe(true);
    capacity = 40;
    expect(pool.tryAcquire("a")).toBe("over_share");
    expect(pool.tryAcquire("b")).toBe("admitted");
  });

  it("takes a configured share for every holder without one of its own", () => {
    const pool = new FairShare({ capacity: () => 100, share: () => 3 });
    expect(take(pool, "a", 4)).toEqual(["admitted", "admitted", "admitted", "over_share"]);
    expect(pool.tryAcquire("a", 5)).toBe("admitted");
  });
});

describe("a contended pool (answers slow down before it is full)", () => {
  it("refuses a busy holder past its fair part of the contended pool while another holder is active, and admits the light one", () => {
    let contended = 100;
    const pool = new FairShare({ capacity: () => 100, contended: () => contended });
    take(pool, "flood", 20);
    contended = 16;
    // Alone, the busy holder is held by the pool only.
    expect(pool.tryAcquire("flood")).toBe("admitted");
    expect(pool.tryAcquire("steady")).toBe("admitted");
    expect(pool.tryAcquire("flood")).toBe("full");
    expect(pool.tryAcquire("steady")).toBe("admitted");
    // A holder with fewer than SHARE_FLOOR (8) in flight is never the one shed before the pool is full.
    expect(take(pool, "small", 8).every((a) => a === "admitted")).toBe(true);
    expect(pool.tryAcquire("small")).toBe("full");
  });

  it("does not refuse a holder known to be light by another measure until the pool itself is full", () => {
    let contended = 40;
    const pool = new FairShare({ capacity: () => 40, contended: () => contended, share: () => Number.POSITIVE_INFINITY });
    take(pool, "flood", 10);
    take(pool, "steady", 20);
    contended = 16;
    expect(pool.tryAcquire("steady")).toBe("full");
    expect(pool.tryAcquire("steady", undefined, false)).toBe("admitted");
    while (pool.total < 40) expect(pool.tryAcquire("steady", undefined, false)).toBe("admitted");
    expect(pool.tryAcquire("steady", undefined, false)).toBe("full");
  });
});
