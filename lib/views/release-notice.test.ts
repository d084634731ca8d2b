import { sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { SYSTEM_ACTOR } from "@/lib/auth/actor";
import { loadReleaseNotice } from "@/lib/views/idempotency";
import { createTestDatabase, type TestDatabase } from "@/test/test-db";
import { releaseIdempotencyKey } from "@/lib/dedup/idempotency/operator-release";

let store: TestDatabase;
beforeAll(async () => {
  store = await createTestDatabase();
  await store.db.execute(sql`insert into idempotency_keys (scope, key, request_hash, status, attempt, locked_until, expires_at)
    values ('pay', 'held', '\\x00', 'in_progress', 2, now() - interval '1 minute', now() + interval '1 day')`);
});

describe("release notice", () => {
  it("comes from the release's own audit row, for that scope and person only", async () => {
    const { auditId } = await releaseIdempotencyKey({ db: store.db, actor: SYSTEM_ACTOR, input: { scope: "pay", key: "held", attempt: 2, reason: "worker crashed" } });
    const notice = (over: Partial<{ auditId: string; scope: string; actorId: string; now: number }> = {}) =>
      loadReleaseNotice(store.db, { auditId: String(auditId), scope: "pay", actorId: SYSTEM_ACTOR.id, ...over });
    expect(await notice()).toMatchObject({ key: "held", attempt: 2 });
    expect(await notice({ scope: "pa" })).toBeNull();
    expect(await notice({ actorId: "someone@else" })).toBeNull();
    expect(await notice({ now: Date.now() + 11 * 60_000 })).toBeNull();
    expect(await notice({ auditId: String(auditId - 1) })).toBeNull();
    expect(await notice({ auditId: "1 or 1=1" })).toBeNull();
  });
});
