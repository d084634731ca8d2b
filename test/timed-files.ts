export type TestGroup = "parallel" | "timed";

/**
 * Which half of a suite this run is (WEIR_TEST_GROUP): the files that may run side by side, or
 * the timed ones, alone. Unset, a config takes every file.
 */
export function testGroup(): TestGroup | undefined {
  const group = process.env.WEIR_TEST_GROUP;
  if (group === undefined || group === "parallel" || group === "timed") return group;
  throw new Error(`WEIR_TEST_GROUP is "${group}": "parallel", "timed" or unset`);
}

/**
 * Test files that assert how long something takes (a shed in under 50 ms, a refusal in under
 * 500 ms, a regex in under 10 ms): they run one at a time, after the rest, so that another
 * file's load on the same two cores is not what they measure.
 */
export const TIMED_FILES: readonly string[] = [
  "lib/http/tests/adaptive-shedding.test.ts",
  "lib/http/tests/fair-capacity.test.ts",
  "lib/dedup/idempotency/wait-api.test.ts",
  "lib/validation/regex-safety.test.ts",
  "lib/views/hidden-chars.test.ts",
];

/**
 * The Citus suite's files that measure time or load, or start clusters of their own and stop
 * them: transactions per worker in a window, operations decided in a bounded run, shard moves
 * and rebalances with deadlines, a coordinator stopped under load, two-session schedules.
 */
export const CITUS_TIMED_FILES: readonly string[] = [
  "test/citus/shard-route.test.ts",
  "test/citus/shard-statements.test.ts",
  "test/citus/rebalance.test.ts",
  "test/citus/coordinator-down.test.ts",
  "test/faults/history/history.test.ts",
  "test/faults/interleavings.test.ts",
];
