import { sql, type SQL } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, type TestDatabase } from "@/test/test-db";
import { insertAudit } from "./audit";
import { auditActions, listAudit, listAuditStatement } from "./console-audit";

let store: TestDatabase;
const ACTIONS = ["token.create", "group.ttl", "reset.start", "auth.sign_in"];

beforeAll(async () => {
  store = await createTestDatabase();
  // 2,000 entries, the actions interleaved, so that neither a sort nor a scan is free.
  await store.db.execute(sql`insert into audit_log (actor, actor_role, action, target)
    select 'ops@example.com', 'operator', (${`{${ACTIONS.join(",")}}`}::text[])[1 + g % ${ACTIONS.length}], 'service:s-' || g
    from generate_series(1, 2000) g`);
  await insertAudit(store.db, { actor: "ops@example.com", actorRole: "operator", action: "erase.key", target: "service:last" });
  await store.db.execute(sql`analyze audit_log`);
});

/** The plan's node types, with sequential scans priced out so that only a missing index leaves one (or a sort). */
async function planNodes(statement: SQL): Promise<string[]> {
  return store.db.transaction(async (tx) => {
    await tx.execute(sql`set local enable_seqscan = off`);
    const result: { rows: { "QUERY PLAN": unknown }[] } = await tx.execute(sql`explain (format json) ${statement}`);
    const raw = result.rows[0]!["QUERY PLAN"];
    const [root] = (typeof raw === "string" ? JSON.parse(raw) : raw) as { Plan: PlanNode }[];
    const nodes: string[] = [];
    const walk = (node: PlanNode) => {
      nodes.push(node["Node Type"]);
      node.Plans?.forEach(walk);
    };
    walk(root!.Plan);
    return nodes;
  });
}
interface PlanNode {
  "Node Type": string;
  Plans?: PlanNode[];
}

describe("the audit page's statements", () => {
  it("names each action that occurs once, in order", async () => {
    expect(await auditActions(store.db)).toEqual([...ACTIONS, "erase.key"].sort());
  });

  it("lists newest first by walking an index, not by sorting the log", async () => {
    for (const q of [{}, { beforeId: 1500 }, { afterId: 100 }, { action: "group.ttl" }, { action: "group.ttl", beforeId: 1500 }]) {
      const nodes = await planNodes(listAuditStatement(q, 51));
      expect(nodes, JSON.stringify(q)).not.toContain("Sort");
      expect(nodes, JSON.stringify(q)).not.toContain("Seq Scan");
    }
  });

  it("pages through one action newest first and back", async () => {
    const first = await listAudit(store.db, { action: "group.ttl" }, 10);
    expect(first.map((r) => r.action)).toEqual(Array(10).fill("group.ttl"));
    expect(first.map((r) => r.id)).toEqual([...first.map((r) => r.id)].sort((a, b) => b - a));
    const next = await listAudit(store.db, { action: "group.ttl", beforeId: first.at(-1)!.id }, 10);
    expect(next[0]!.id).toBeLessThan(first.at(-1)!.id);
    const back = await listAudit(store.db, { action: "group.ttl", afterId: next[0]!.id }, 10);
    expect(back.map((r) => r.id)).toEqual(first.map((r) => r.id));
  });
});
