import { afterAll, describe, expect, it } from "vitest";
import { closeStore } from "@/db/client";
import { storeReachable, withStore } from "./store";

// This file's process points the store at a port nobody listens on: the console's view of an outage.
process.env.DATABASE_URL = "postgres://weir@127.0.0.1:9/weir";
afterAll(() => closeStore().catch(() => undefined));

describe("console reads while the store is down", () => {
  it("come back as store_unavailable instead of throwing, and the layout's ping says unreachable", async () => {
    let ran = false;
    expect(await withStore(async () => (ran = true))).toEqual({ ok: false, reason: "store_unavailable" });
    expect(ran).toBe(false);
    expect(await storeReachable(1_000)).toBe(false);
  });

});
