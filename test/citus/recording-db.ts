import { drizzle } from "drizzle-orm/node-postgres";
import type pg from "pg";
import * as schema from "@/db/schema";
import type { DbOrTx } from "@/db/types";

export interface SentStatement {
  name: string;
  text: string;
  values: unknown[];
}

/**
 * A drizzle db over `pool` that keeps every statement it sends (the hot path's
 * are named: db/raw.ts; drizzle's are not), so a test can ask the database how
 * it plans exactly what weir sent. Statements still run for real.
 */
export function recordingDb(pool: pg.Pool): { db: DbOrTx; sent: SentStatement[] } {
  const sent: SentStatement[] = [];
  const recorder = new Proxy(pool, {
    get(target, property, receiver) {
      if (property !== "query") {
        const value = Reflect.get(target, property, receiver) as unknown;
        return typeof value === "function" ? value.bind(target) : value;
      }
      return (config: unknown, ...rest: unknown[]) => {
        const statement = config as Partial<SentStatement> | string;
        if (typeof statement === "string") sent.push({ name: "", text: statement, values: (rest[0] as unknown[]) ?? [] });
        else if (statement?.text) sent.push({ name: statement.name ?? "", text: statement.text, values: statement.values ?? (rest[0] as unknown[]) ?? [] });
        return (target.query as (...args: unknown[]) => unknown)(config, ...rest);
      };
    },
  });
  return { db: drizzle({ client: recorder, schema }), sent };
}

/** The plan Citus makes for a statement with its values (EXPLAIN, nothing runs). */
export async function planOf(pool: pg.Pool, statement: SentStatement): Promise<string> {
  const result = await pool.query(`explain ${statement.text}`, statement.values);
  return (result.rows as { "QUERY PLAN": string }[]).map((row) => row["QUERY PLAN"]).join("\n");
}

/** A router plan: Citus sends the whole statement to one shard as one task, nothing runs on the coordinator first. */
export function isRouterPlan(plan: string): boolean {
  const tasks = plan.match(/Task Count: \d+/g) ?? [];
  return (
    tasks.length === 1 &&
    tasks[0] === "Task Count: 1" &&
    !plan.includes("Distributed Subplan") &&
    !plan.includes("INSERT ... SELECT") &&
    !plan.includes("pull to coordinator") &&
    !plan.includes("repartition")
  );
}
