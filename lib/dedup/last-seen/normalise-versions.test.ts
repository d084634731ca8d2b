import { sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { SYSTEM_ACTOR } from "@/lib/auth/actor";
import { saveService } from "@/lib/services/save-service";
import type { ServiceSettingsInput } from "@/lib/validation/services";
import { createService } from "@/test/factories";
import { createTestDatabase, type TestDatabase } from "@/test/test-db";
import { hashForService } from "./check";
import { decideInOrder } from "./decide";
import { serviceConfigs } from "./service-config";

let store: TestDatabase;
beforeAll(async () => {
  store = await createTestDatabase();
});

const settle = (serviceId: string, input: ServiceSettingsInput) => saveService({ db: store.db, actor: SYSTEM_ACTOR, id: serviceId, input });

/** A check of a payload's exact JSON text, as the API sends it (JS values would lose `1.0`). */
async function decide(serviceId: string, messageId: string, payloadText: string) {
  const config = await serviceConfigs.require(store.db, serviceId);
  const [outcome] = await decideInOrder(store.db, [hashForService(config, messageId, payloadText)]);
  return outcome!;
}

async function storedVersion(serviceId: string, messageId: string) {
  const { rows } = await store.db.execute<{ hash_version: number; xmin: string }>(
    sql`select hash_version, xmin::text from last_seen where service_id = ${serviceId} and message_id = ${messageId}`,
  );
  return rows[0];
}

describe("normalisation as part of the hash settings", () => {
  it("is the recommended set for a new service, and kept by a save that does not name it", async () => {
    const serviceId = await createService(store.db);
    const { service } = await settle(serviceId, { ignoredPaths: ["/meta/sentAt"] });
    expect(service.normalise).toEqual(["empty_containers", "nulls", "numbers"]);
    expect(service.hashVersion).toBe(2);
    expect((await decide(serviceId, "o-1", '{"amount":10.0,"meta":{"sentAt":"t1"},"note":null}')).decision).toBe("new");
    expect((await decide(serviceId, "o-1", '{"amount":1e1}')).decision).toBe("duplicate");
    expect((await decide(serviceId, "o-1", '{"amount":10,"meta":{"sentAt":"t2"},"tags":[]}')).decision).toBe("duplicate");
    expect((await decide(serviceId, "o-1", '{"amount":10.01}')).decision).toBe("changed");
  });

  it("stays off for a service that predates it (an empty list), until its settings name some", async () => {
    const serviceId = await createService(store.db);
    await store.db.execute(sql`update services set normalise = '{}' where id = ${serviceId}`);
    serviceConfigs.invalidate(serviceId);
    const { service } = await settle(serviceId, { ignoredPaths: ["/x"] });
    expect(service.normalise).toEqual([]);
    expect((await decide(serviceId, "o-1", '{"a":1}')).decision).toBe("new");
    expect((await decide(serviceId, "o-1", '{"a":1.0}')).decision).toBe("changed");
  });

  it("never flips a stored key when turned on: unchanged is a duplicate, and the key moves to the new settings once", async () => {
    const serviceId = await createService(store.db, { normalise: [] });
    expect((await decide(serviceId, "o-1", '{"a":1.0,"b":null}')).decision).toBe("new");
    const { service } = await settle(serviceId, { normalise: ["numbers", "nulls"] });
    expect(service.hashVersion).toBe(2);

    const again = await decide(serviceId, "o-1", '{"a":1.0,"b":null}');
    expect(again).toMatchObject({ decision: "duplicate", version: 1, hashVersion: 2 });
    // Equal under no normalisation is equal under more: exact, so the key moved.
    expect((await storedVersion(serviceId, "o-1"))!.hash_version).toBe(2);
    const before = await storedVersion(serviceId, "o-1");
    expect((await decide(serviceId, "o-1", '{"a":1}')).decision).toBe("duplicate");
    expect((await storedVersion(serviceId, "o-1"))!.xmin).toBe(before!.xmin);
  });

  it("never flips a stored key when turned off: what was equal under the key's settings stays a duplicate", async () => {
    const serviceId = await createService(store.db, { normalise: ["numbers"] });
    expect((await decide(serviceId, "o-1", '{"a":1}')).decision).toBe("new");
    await settle(serviceId, { normalise: [] });
    expect((await decide(serviceId, "o-1", '{"a":1.0}')).decision).toBe("duplicate");
    // Not exact in that direction: the key keeps the settings it was stored under.
    expect((await storedVersion(serviceId, "o-1"))!.hash_version).toBe(1);
    expect((await decide(serviceId, "o-1", '{"a":2}')).decision).toBe("changed");
    expect((await decide(serviceId, "o-1", '{"a":2.0}')).decision).toBe("changed");
  });

  it("counts a reordered or repeated list as no change", async () => {
    const serviceId = await createService(store.db, { normalise: ["nulls", "numbers"] });
    const { service } = await settle(serviceId, { normalise: ["numbers", "nulls", "numbers"] });
    expect(service).toMatchObject({ hashVersion: 1, normalise: ["nulls", "numbers"] });
  });
});
