import { describe, expect, it } from "vitest";
import { citusRoutingHint } from "./citus";

describe("the Citus routing hint at start", () => {
  it("names WEIR_CITUS_ROUTE_URLS when a node on Citus sends its checks through the coordinator", () => {
    expect(citusRoutingHint(true, false)).toMatch(/through the coordinator.*WEIR_CITUS_ROUTE_URLS is unset/);
  });

  it("says nothing with the hot path on the workers, or without Citus", () => {
    expect(citusRoutingHint(true, true)).toBeUndefined();
    expect(citusRoutingHint(false, false)).toBeUndefined();
  });
});
