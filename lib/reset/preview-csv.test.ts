import { beforeAll, describe, expect, it } from "vitest";
import { checkMany } from "@/lib/dedup/last-seen/check";
import { ForbiddenError } from "@/lib/errors";
import { keyBrowserSelection } from "@/lib/views/reset-page";
import { checkInBatches, createService } from "@/test/factories";
import { createTestDatabase, type TestDatabase } from "@/test/test-db";
import { previewReset } from "./preview-reset";
import { resetSelectionCsv } from "./preview-csv";

const operator = { id: "ops@example.com", role: "operator" as const };
const viewer = { id: "look@example.com", role: "viewer" as const };
let store: TestDatabase;
let serviceId: string;

beforeAll(async () => {
  store = await createTestDatabase();
  serviceId = await createService(store.db, { historyDepth: 1 });
  const orders = Array.from({ length: 2_500 }, (_, i) => `order-${String(i).padStart(4, "0")}`);
  await checkInBatches(store.db, orders.map((messageId) => ({ serviceId, messageId, payload: { v: 1 } })));
  // Every tenth order changed once more (version 2), and one id a spreadsheet would run as a formula.
  await checkInBatches(store.db, orders.filter((_, i) => i % 10 === 0).map((messageId) => ({ serviceId, messageId, payload: { v: 2 } })));
  await checkMany(store.db, [{ serviceId, messageId: "=cmd|' /C calc'!A0", payload: { v: 1 } }]);
});

const csvOf = async (stream: ReadableStream<Uint8Array>) => new Response(stream).text();

describe("a reset preview's whole selection as CSV", () => {
  it("holds every row the preview counts (not only its sample), in id order, past one read chunk", async () => {
    const input = { kind: "last_seen", subject: serviceId, mode: "filter", prefix: "order-" } as const;
    const preview = await previewReset({ db: store.db, actor: operator, input });
    expect(preview.count).toBe(2_500);
    expect(preview.sample).toHaveLength(20);
    const lines = (await csvOf(await resetSelectionCsv({ db: store.db, actor: operator, input }))).trimEnd().split("\r\n");
    expect(lines[0]).toBe('"message_id","at","version"');
    expect(lines).toHaveLength(2_501);
    expect(lines[1]).toMatch(/^"order-0000","\d{4}-\d\d-\d\dT[\d:.]+Z","2"$/);
    expect(lines[2]).toMatch(/^"order-0001",".+","1"$/);
    expect(lines.at(-1)).toMatch(/^"order-2499",/);
  });

  it("neutralises formula cells, covers list mode, stops at its bound, and is an operator's", async () => {
    const all = await csvOf(await resetSelectionCsv({ db: store.db, actor: operator, input: { kind: "last_seen", subject: serviceId, mode: "filter" } }));
    expect(all).toContain(`"'=cmd|' /C calc'!A0"`);
    const list = await csvOf(await resetSelectionCsv({ db: store.db, actor: operator, input: { kind: "last_seen", subject: serviceId, mode: "list", messageIds: "order-0003\norder-0001\nnot-stored" } }));
    expect(list.trimEnd().split("\r\n").slice(1).map((l) => l.split(",")[0])).toEqual(['"order-0001"', '"order-0003"']);
    const bounded = await csvOf(await resetSelectionCsv({ db: store.db, actor: operator, input: { kind: "last_seen", subject: serviceId, mode: "filter" }, maxRows: 1_500 }));
    expect(bounded.trimEnd().split("\r\n")).toHaveLength(1_501);
    await expect(resetSelectionCsv({ db: store.db, actor: viewer, input: { kind: "last_seen", subject: serviceId, mode: "filter" } })).rejects.toBeInstanceOf(ForbiddenError);
  });
});

describe("the key browser's filter as a reset selection", () => {
  it("turns a version filter into the exact list of keys the browser shows; without one it stays a filter", async () => {
    const picked = await keyBrowserSelection(store.db, serviceId, { prefix: "order-00", minVersion: "2" });
    expect(picked).toMatchObject({ tooMany: false, minVersion: 2 });
    expect(picked!.ids).toEqual(Array.from({ length: 10 }, (_, i) => `order-00${String(i * 10).padStart(2, "0")}`));
    const preview = await previewReset({ db: store.db, actor: operator, input: { kind: "last_seen", subject: serviceId, mode: "list", messageIds: picked!.ids.join("\n") } });
    expect(preview.count).toBe(10);
    expect(await keyBrowserSelection(store.db, serviceId, { prefix: "order-" })).toBeNull();
  });
});
