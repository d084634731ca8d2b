import { sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { begin } from "@/lib/dedup/idempotency/begin";
import { previewStuckKeys, releaseStuck } from "@/lib/dedup/idempotency/release-stuck";
import { resetSelectionCsv } from "@/lib/reset/preview-csv";
import { checkInBatches, createService } from "@/test/factories";
import { createTestDatabase, type TestDatabase } from "./citus-test-db";

let store: TestDatabase;
const OPERATOR = { id: "citus@weir.test", role: "operator" as const };

beforeAll(async () => {
  store = await createTestDatabase();
});

describe("bulk actions on Citus (one scope's keys live on every shard)", () => {
  it("previews and releases every stuck key of a scope, leaving a live one held", async () => {
    for (const key of ["k-1", "k-2", "k-3", "live"]) await begin(store.db, { scope: "s-stuck", key, requestHash: "ab".repeat(32) });
    // Through UTC timestamps: Citus refuses timestamptz - interval (stable) on a column in an UPDATE.
    await store.db.execute(sql`update idempotency_keys set
      created_at = ((created_at at time zone 'UTC') - '2 hours'::interval) at time zone 'UTC',
      locked_until = ((locked_until at time zone 'UTC') - '2 hours'::interval) at time zone 'UTC'
      where scope = 's-stuck' and key <> 'live'`);
    expect((await previewStuckKeys({ db: store.db, actor: OPERATOR, scope: "s-stuck" })).count).toBe(3);
    expect(await releaseStuck({ db: store.db, actor: OPERATOR, input: { scope: "s-stuck", reason: "workers died" } })).toMatchObject({ released: 3 });
    expect((await previewStuckKeys({ db: store.db, actor: OPERATOR, scope: "s-stuck" })).count).toBe(0);
    expect(await begin(store.db, { scope: "s-stuck", key: "live", requestHash: "ab".repeat(32) })).toMatchObject({ outcome: "in_progress" });
  });

  it("streams a reset selection as CSV", async () => {
    const serviceId = await createService(store.db);
    await checkInBatches(store.db, Array.from({ length: 1_200 }, (_, i) => ({ serviceId, messageId: `m-${String(i).padStart(4, "0")}`, payload: 1 })));
    const csv = await new Response(await resetSelectionCsv({ db: store.db, actor: OPERATOR, input: { kind: "last_seen", subject: serviceId, mode: "filter" } })).text();
    expect(csv.trimEnd().split("\r\n")).toHaveLength(1_201);
  });
});
