import { rebuildRollups, rolledSpans } from "@/db/queries/console-stats";
import type { GlobalOptions } from "../option-types";
import { withStore } from "../store";

/** Charts stay right while it runs: without a mark, readers take the minutes. */
export async function runRollupsRebuild(globals: GlobalOptions): Promise<void> {
  await withStore({ databaseUrl: globals.databaseUrl }, async ({ db }) => {
    const started = performance.now();
    await rebuildRollups(db);
    const marks = (await rolledSpans(db)).map((r) => `${r.rollup.table} to ${r.until.toISOString()}`);
    console.log(`rebuilt the stats rollups in ${Math.round(performance.now() - started)} ms: ${marks.length > 0 ? marks.join(", ") : "no stats yet"}`);
  });
}
