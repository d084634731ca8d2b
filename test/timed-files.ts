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
