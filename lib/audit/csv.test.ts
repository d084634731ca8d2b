import { sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { insertAudit } from "@/db/queries/audit";
import { createTestDatabase, type TestDatabase } from "@/test/test-db";
import { csvCell, csvRow } from "@/lib/csv";
import { auditCsvStream } from "./export";

describe("csvCell", () => {
  it("neutralises cells a spreadsheet would run as a formula", () => {
    expect(csvCell("=HYPERLINK(\"http://x\")")).toBe('"\'=HYPERLINK(""http://x"")"');
    expect(csvCell("+1")).toBe(`"'+1"`);
    expect(csvCell("-2+3")).toBe(`"'-2+3"`);
    expect(csvCell("@SUM(A1)")).toBe(`"'@SUM(A1)"`);
    expect(csvCell("\tcmd")).toBe(`"'\tcmd"`);
    expect(csvCell("\rcmd")).toBe(`"'\rcmd"`);
  });

  it("quotes every cell and doubles quotes, keeping commas and newlines inside the cell", () => {
    expect(csvCell('a "b", c\nd')).toBe('"a ""b"", c\nd"');
    expect(csvCell("plain")).toBe('"plain"');
    expect(csvCell(null)).toBe('""');
    expect(csvCell(42)).toBe('"42"');
    expect(csvCell(new Date("2025-01-02T03:04:05.000Z"))).toBe('"2025-01-02T03:04:05.000Z"');
    expect(csvRow(["a", "=b"])).toBe('"a","\'=b"\r\n');
  });
});

describe("auditCsvStream", () => {
  let store: TestDatabase;
  beforeAll(async () => {
    store = await createTestDatabase();
  });

  it("streams the filtered log newest first, in chunks, with hostile cells neutralised", async () => {
    const target = `service:csv-${Date.now()}`;
    await insertAudit(store.db, { actor: "ops", actorRole: "operator", action: "reset.start", target, affected: 0, reason: '+evil, "quoted"' });
    await store.db.execute(sql`insert into audit_log (actor, actor_role, action, target, affected, reason)
      select 'ops', 'operator', 'reset.start', ${target}, g, 'r' from generate_series(1, 1203) g`);
    await insertAudit(store.db, { actor: "=cmd|'/c calc'!A1", actorRole: "operator", action: "reset.start", target, affected: 1204 });
    await insertAudit(store.db, { actor: "ops", actorRole: "operator", action: "reset.start", target: "service:other", affected: 1 });
    const text = await new Response(await auditCsvStream(store.db, { targetPrefix: target })).text();
    const lines = text.split("\r\n").filter((line) => line.length > 0);
    expect(lines[0]).toBe('"id","at","actor","actor_role","action","target","affected","reason","details"');
    expect(lines).toHaveLength(1 + 1205);
    expect(lines[1]).toContain(`"'=cmd|'/c calc'!A1"`);
    expect(lines[1]).toContain('"1204"');
    expect(lines.at(-1)).toContain(`"'+evil, ""quoted"""`);
    expect(text).not.toContain("service:other");

    const capped = await new Response(await auditCsvStream(store.db, { targetPrefix: target }, 10)).text();
    expect(capped.split("\r\n").filter(Boolean)).toHaveLength(11);
  });
});
