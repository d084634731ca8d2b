import { beforeAll, describe, expect, it } from "vitest";
import { ZodError } from "zod";
import { SYSTEM_ACTOR } from "@/lib/auth/actor";
import { check } from "@/lib/dedup/last-seen/check";
import { NotFoundError } from "@/lib/errors";
import { saveService } from "@/lib/services/save-service";
import { createService } from "@/test/factories";
import { createTestDatabase, type TestDatabase } from "@/test/test-db";
import { previewServiceSettings } from "./service-settings";

let store: TestDatabase;

beforeAll(async () => {
  store = await createTestDatabase();
});

const order = { order: { id: 7, total: 10 }, customer: { id: "c-1", name: "Ada" }, meta: { sentAt: "t1" } };

describe("previewServiceSettings", () => {
  it("says a path change is a new hash version, shows the newest kept payload hashed before and after, and agrees with the verb", async () => {
    const serviceId = await createService(store.db, { ignoredPaths: ["/meta/sentAt"], historyDepth: 2 });
    await check(store.db, { serviceId, messageId: "o-1", payload: { ...order, order: { id: 7, total: 9 } } });
    await check(store.db, { serviceId, messageId: "o-1", payload: order });
    const settings = { ignoredPaths: ["/meta/sentAt"], includedPaths: ["/order", "/customer/id", "/order"], historyDepth: 2 };

    const preview = await previewServiceSettings(store.db, { serviceId, settings });
    expect(preview).toMatchObject({ newHashVersion: true, hashVersionAfter: 2, unchanged: false });
    expect(preview.next.includedPaths).toEqual(["/customer/id", "/order"]);
    expect(preview.sample).toMatchObject({ messageId: "o-1", version: 2 });
    expect(preview.sample!.before).toMatchObject({ canonical: '{"customer":{"id":"c-1","name":"Ada"},"order":{"id":7,"total":10}}' });
    expect(preview.sample!.after).toMatchObject({ canonical: '{"customer":{"id":"c-1"},"order":{"id":7,"total":10}}' });

    const saved = await saveService({ db: store.db, actor: SYSTEM_ACTOR, id: serviceId, input: settings });
    expect(saved.service.hashVersion).toBe(preview.hashVersionAfter);
  });

  it("treats reordered and repeated paths as no change, as the store does", async () => {
    const serviceId = await createService(store.db, { ignoredPaths: ["/b", "/a"], includedPaths: ["/x", "/y"] });
    const settings = { ignoredPaths: ["/a", "/b", "/a"], includedPaths: ["/y", "/x"], historyDepth: 0 };
    const preview = await previewServiceSettings(store.db, { serviceId, settings });
    expect(preview).toMatchObject({ newHashVersion: false, hashVersionAfter: 1, unchanged: true, sample: null });
    const saved = await saveService({ db: store.db, actor: SYSTEM_ACTOR, id: serviceId, input: settings });
    expect(saved.service.hashVersion).toBe(1);
  });

  it("refuses what saving refuses, with the field, and an unknown service", async () => {
    const serviceId = await createService(store.db);
    const refusal = await previewServiceSettings(store.db, { serviceId, settings: { ignoredPaths: ["meta"], historyDepth: 101 } }).catch((e: unknown) => e);
    expect(refusal).toBeInstanceOf(ZodError);
    expect((refusal as ZodError).issues.map((i) => i.path)).toEqual([["ignoredPaths", 0], ["historyDepth"]]);
    await expect(previewServiceSettings(store.db, { serviceId: "no-such-service", settings: {} })).rejects.toThrow(NotFoundError);
  });
});
