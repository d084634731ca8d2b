import { sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, type TestDatabase } from "@/test/test-db";
import { rangeWhere } from "./journal";
import { createJournalPartitions, dayStart } from "./journal-partitions";

let store: TestDatabase;
const DAY_MS = 86_400_000;
const MIN_US = 60_000_000;
const today = dayStart(Date.now());
const DAYS = [today - 2 * DAY_MS, today - DAY_MS, today];
/** An entry every 4 seconds over the three days: 21,600 a day, about 240 pages of heap each. */
const STEP_US = 4_000_000;
/** Every 500th entry is appended 6 hours late (a batch flushed after the store came back). */
const LATE_EVERY = 500;
const LATE_US = 6 * 60 * MIN_US;
const ENTRIES = (3 * DAY_MS * 1000) / STEP_US;
const atOf = (g: number) => DAYS[0]! * 1000 + g * STEP_US - (g % LATE_EVERY === 0 ? LATE_US : 0);
/** Noon of the middle day. */
const NOON_US = (today - DAY_MS / 2) * 1000;

beforeAll(async () => {
  store = await createTestDatabase();
  await createJournalPartitions(store.db, DAYS);
  await store.db.execute(sql`insert into journal (at, mode, subject, key, decision)
    select timestamptz 'epoch' + (${DAYS[0]! * 1000}::int8 + g * ${STEP_US}::int8
        - case when g % ${LATE_EVERY} = 0 then ${LATE_US}::int8 else 0 end) * interval '1 microsecond',
      'last_seen', 'svc-' || g % 50, 'key-' || g, 'new'
    from generate_series(0, ${ENTRIES - 1}) g
    where g * ${STEP_US}::int8 >= ${LATE_US}::int8`);
  // Entries a microsecond either side of a range's bounds.
  await store.db.execute(sql`insert into journal (at, mode, subject, key, decision)
    select timestamptz 'epoch' + (${NOON_US}::int8 + d) * interval '1 microsecond', 'last_seen', 'edge', 'edge' || d, 'new'
    from unnest(array[1, 2, 9, 10]) d`);
  // What the journal's upkeep leaves behind: each full block range summed (autosummarize, vacuum).
  await store.db.execute(sql`vacuum analyze journal`);
});

interface PlanNode {
  "Node Type": string;
  "Relation Name"?: string;
  "Subplans Removed"?: number;
  "Actual Rows"?: number;
  "Rows Removed by Index Recheck"?: number;
  Plans?: PlanNode[];
}

async function explainRange(fromUs: number, toUs: number): Promise<PlanNode[]> {
  const result: { rows: { "QUERY PLAN": unknown }[] } = await store.db.execute(
    sql`explain (analyze, format json) select count(*) from journal where ${rangeWhere({ fromUs, toUs })}`,
  );
  const raw = result.rows[0]!["QUERY PLAN"];
  const [root] = (typeof raw === "string" ? JSON.parse(raw) : raw) as { Plan: PlanNode }[];
  const nodes: PlanNode[] = [];
  const walk = (node: PlanNode) => {
    nodes.push(node);
    node.Plans?.forEach(walk);
  };
  walk(root!.Plan);
  return nodes;
}

describe("a time range of the journal", () => {
  it("is planned on its day's partition alone, not pruned only as it runs", async () => {
    const nodes = await explainRange(NOON_US, NOON_US + 2 * MIN_US);
    const relations = new Set(nodes.flatMap((n) => (n["Relation Name"] ? [n["Relation Name"]] : [])));
    expect([...relations]).toHaveLength(1);
    expect(nodes.some((n) => n["Subplans Removed"] !== undefined)).toBe(false);
  });

  it("reads a few minutes' entries through small block ranges, which entries appended late do not stretch", async () => {
    const [fromUs, toUs] = [NOON_US, NOON_US + 2 * MIN_US];
    const nodes = await explainRange(fromUs, toUs);
    const heap = nodes.find((n) => n["Node Type"] === "Bitmap Heap Scan");
    expect(heap, "the block range index is used").toBeDefined();
    let inRange = 4; // the entries at the range's start
    for (let g = 0; g < ENTRIES; g++) if (g * STEP_US >= LATE_US && atOf(g) >= fromUs && atOf(g) < toUs) inRange += 1;
    expect(heap!["Actual Rows"]).toBe(inRange);
    // A range of 16 pages holds about 1,400 of these entries, one of 128 about 11,000; with one
    // interval a range, the late entries would stretch every range over 6 hours.
    expect(heap!["Rows Removed by Index Recheck"] ?? 0).toBeLessThan(3_000);
  });

  it("holds its first microsecond and not its last", async () => {
    const [row] = (await store.db.execute(sql`select count(*)::int as n from journal where subject = 'edge' and ${rangeWhere({ fromUs: NOON_US + 2, toUs: NOON_US + 10 })}`))
      .rows as { n: number }[];
    expect(row!.n).toBe(2);
  });
});
