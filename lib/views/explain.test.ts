import { sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { begin } from "@/lib/dedup/idempotency/begin";
import { check } from "@/lib/dedup/last-seen/check";
import { CanonicalJsonError } from "@/lib/dedup/canonical/errors";
import { ForbiddenError, NotFoundError } from "@/lib/errors";
import { createService } from "@/test/factories";
import { createTestDatabase, type TestDatabase } from "@/test/test-db";
import { explainCheck } from "./explain";
import { releaseIdempotencyKey } from "@/lib/dedup/idempotency/operator-release";
import { SYSTEM_ACTOR } from "@/lib/auth/actor";
import { saveService } from "@/lib/services/save-service";

const viewer = { id: "look@example.com", role: "viewer" as const };
const operator = { id: "ops@example.com", role: "operator" as const };
let store: TestDatabase;

beforeAll(async () => {
  store = await createTestDatabase();
});

const counts = async () =>
  (await store.db.execute(sql`select (select count(*) from last_seen)::int as keys, (select count(*) from payload_versions)::int as versions,
    (select count(*) from audit_log)::int as audit`)).rows[0];

describe("explainCheck", () => {
  it("answers what check would decide, with canonical form and diff, and writes nothing", async () => {
    const serviceId = await createService(store.db, { ignoredPaths: ["/meta/sentAt"], historyDepth: 3 });
    const stored = await check(store.db, { serviceId, messageId: "o-1", payload: { total: 10, meta: { sentAt: "t1" } } });
    const before = await counts();
    const explain = (payload: string, messageId = "o-1") => explainCheck({ db: store.db, actor: viewer, input: { serviceId, messageId, payload } });

    const duplicate = await explain('{"meta":{"sentAt":"t2"},"total":10}');
    expect(duplicate).toMatchObject({ decision: "duplicate", version: 1, hash: stored.hash, ignoredPresent: ["/meta/sentAt"], diff: null });
    // A new service normalises (the recommended set): the emptied `meta` is left out of the canonical form.
    expect(duplicate.canonical).toBe('{"total":10}');
    expect(duplicate.normalise).toEqual(["empty_containers", "nulls", "numbers"]);
    expect(duplicate.stored).toMatchObject({ hash: stored.hash, version: 1 });

    const changed = await explain('{"total":12,"meta":{"sentAt":"t3"}}');
    expect(changed).toMatchObject({ decision: "changed", version: 2 });
    expect(changed.diff).toEqual({
      version: 1,
      entries: [
        { path: "/total", kind: "changed", before: "10", after: "12", ignored: false },
        { path: "/meta/sentAt", kind: "changed", before: '"t1"', after: '"t3"', ignored: true },
      ],
    });
    expect(await explain("[1]", "o-2")).toMatchObject({ decision: "new", version: 1, stored: null });
    expect(await counts()).toEqual(before);
  });

  it("shows the settings an older key was stored under and the hash compared under them", async () => {
    const serviceId = await createService(store.db, { historyDepth: 0 });
    const payload = '{"total":10,"meta":{"sentAt":"t1"}}';
    const stored = await check(store.db, { serviceId, messageId: "o-1", payload: JSON.parse(payload) });
    await saveService({ db: store.db, actor: SYSTEM_ACTOR, id: serviceId, input: { ignoredPaths: ["/meta"] } });
    const before = await counts();
    const explanation = await explainCheck({ db: store.db, actor: viewer, input: { serviceId, messageId: "o-1", payload } });
    expect(explanation).toMatchObject({ decision: "duplicate", hashVersion: 2, stored: { hash: stored.hash, hashVersion: 1 } });
    expect(explanation.hash).not.toBe(stored.hash);
    expect(explanation.storedSettings).toEqual({ hashVersion: 1, ignoredPaths: [], includedPaths: [], normalise: expect.any(Array), hash: stored.hash });
    expect(await counts()).toEqual(before);
    // A key stored under today's settings needs no such line.
    const fresh = await check(store.db, { serviceId, messageId: "o-2", payload: JSON.parse(payload) });
    const current = await explainCheck({ db: store.db, actor: viewer, input: { serviceId, messageId: "o-2", payload } });
    expect(current).toMatchObject({ decision: "duplicate", hash: fresh.hash, storedSettings: null, stored: { hashVersion: 2 } });
  });

  it("refuses bad input the way check does", async () => {
    const serviceId = await createService(store.db);
    const input = (payload: string) => ({ serviceId, messageId: "x", payload });
    await expect(explainCheck({ db: store.db, actor: viewer, input: input('{"a":1,"a":2}') })).rejects.toThrow(CanonicalJsonError);
    await expect(explainCheck({ db: store.db, actor: viewer, input: { ...input("{}"), serviceId: "nope" } })).rejects.toThrow(NotFoundError);
  });
});

describe("releaseIdempotencyKey", () => {
  it("releases the attempt the operator saw, with an audit row, and refuses viewers", async () => {
    const ref = { scope: "payments", key: `k-${Date.now()}`, requestHash: "a".repeat(64) };
    const started = await begin(store.db, ref);
    expect(started.outcome).toBe("started");
    const input = { scope: ref.scope, key: ref.key, attempt: 1, reason: "caller crashed" };
    await expect(releaseIdempotencyKey({ db: store.db, actor: viewer, input })).rejects.toThrow(ForbiddenError);
    const { released, auditId } = await releaseIdempotencyKey({ db: store.db, actor: operator, input });
    expect(released).toBe(true);
    const audit = (await store.db.execute(sql`select id::int, action, actor, affected, reason, details from audit_log where action = 'idempotency_key.release'`)).rows;
    expect(audit).toEqual([{ id: auditId, action: "idempotency_key.release", actor: operator.id, affected: 1, reason: "caller crashed", details: { key: ref.key, attempt: 1 } }]);
    await expect(releaseIdempotencyKey({ db: store.db, actor: operator, input })).rejects.toThrow(NotFoundError);
  });
});
