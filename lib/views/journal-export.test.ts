import { beforeAll, describe, expect, it } from "vitest";
import { GET } from "@/app/(console)/incidents/export/route";
import { runWithRequestHeaders } from "@/lib/auth/request-headers";
import { JournalBuffer } from "@/lib/journal/buffer";
import { JournalWriter } from "@/lib/journal/writer";
import { browserHeaders, signedInUser, TEST_ORIGIN, type TestUser } from "@/test/auth-fixtures";
import { uniqueId } from "@/test/factories";
import { createTestDatabase, type TestDatabase } from "@/test/test-db";
import { journalExportStream } from "./journal-export";

let store: TestDatabase;
let viewer: TestUser;
const subject = uniqueId("svc");
const START = Math.floor(Date.now() / 60_000) * 60_000 - 10 * 60_000;
const COUNT = 2_500;

beforeAll(async () => {
  store = await createTestDatabase();
  // The route reaches the store through db/client's process-wide handle: point it at this file's database.
  (globalThis as Record<symbol, { promise?: Promise<unknown> }>)[Symbol.for("weir.store")]!.promise = Promise.resolve(store);
  viewer = await signedInUser(store.db, "viewer");
  const writer = new JournalWriter(new JournalBuffer(COUNT), { batchEntries: 1000, retentionMs: 7 * 86_400_000 });
  for (let i = 0; i < COUNT; i++) {
    writer.buffer.push({
      atUs: START * 1000 + i * 100,
      mode: "last_seen",
      subject,
      key: i === 0 ? "=HYPERLINK(\"x\")" : `K-${i % 7}`,
      decision: i % 7 === 0 ? "new" : "duplicate",
      version: 1,
      matchedAt: null,
      hashVersion: 1,
      caller: "orders-producer",
      requestId: `req-${i}`,
      traceId: null,
    });
  }
  await writer.flush(store.db);
});

const range = { fromUs: START * 1000, toUs: (START + 60_000) * 1000, mode: "last_seen" as const, subject };
const text = async (stream: ReadableStream<Uint8Array>) => new Response(stream).text();

describe("the journal export", () => {
  it("streams every entry of the range across pages, oldest first, as CSV with formula cells neutralised", async () => {
    const csv = (await text(await journalExportStream(store.db, range, "csv"))).trimEnd().split("\r\n");
    expect(csv[0]).toBe(`"at","mode","subject","key","decision","version","matched_at","hash_version","caller","request_id","trace_id"`);
    expect(csv).toHaveLength(COUNT + 1);
    expect(csv[1]).toContain(`"'=HYPERLINK(""x"")"`);
    expect(csv.at(-1)).toContain(`"req-${COUNT - 1}"`);
  });

  it("writes NDJSON, one entry a line, and stops at the row limit", async () => {
    const lines = (await text(await journalExportStream(store.db, range, "ndjson", 1_200))).trimEnd().split("\n");
    expect(lines).toHaveLength(1_200);
    const first = JSON.parse(lines[0]!);
    expect(first).toMatchObject({ subject, key: "=HYPERLINK(\"x\")", decision: "new", caller: "orders-producer", requestId: "req-0" });
    expect(first.at).toMatch(/\.\d{6}Z$/);
    expect(JSON.parse(lines[1_199]!).requestId).toBe("req-1199");
  });
});

describe("GET /incidents/export", () => {
  const download = (query: string, user: TestUser | null = viewer) =>
    runWithRequestHeaders(browserHeaders(user ? { cookie: user.cookie } : {}), () => GET(new Request(`${TEST_ORIGIN}/incidents/export${query}`)));
  const from = new Date(START).toISOString().slice(0, 16);
  const to = new Date(START + 60_000).toISOString().slice(0, 16);

  it("downloads a subject's range as NDJSON for a signed-in viewer", async () => {
    const response = await download(`?from=${from}&to=${to}&kind=service&subject=${subject}&format=ndjson`);
    expect(response.status, await response.clone().text()).toBe(200);
    expect(response.headers.get("content-type")).toContain("application/x-ndjson");
    expect(response.headers.get("content-disposition")).toMatch(/attachment; filename="weir-journal-.*\.ndjson"/);
    expect((await response.text()).trimEnd().split("\n")).toHaveLength(COUNT);
  });

  it("refuses a bad range or format with a 400 naming the field, before anything is sent", async () => {
    for (const [query, field] of [
      [`?from=${to}&to=${from}`, "to"],
      [`?to=${to}`, "from"],
      [`?from=yesterday&to=${to}`, "from"],
      [`?from=2025-01-01T00:00&to=2025-03-01T00:00`, "to"],
      [`?from=${from}&to=${to}&subject=${subject}`, "kind"],
      [`?from=${from}&to=${to}&format=xlsx`, "format"],
    ] as const) {
      const response = await download(query);
      expect(response.status, query).toBe(400);
      expect(Object.keys((await response.json()).fieldErrors), query).toContain(field);
    }
  });

  it("answers 401 to a visitor who is not signed in", async () => {
    expect((await download(`?from=${from}&to=${to}`, null)).status).toBe(401);
  });
});
