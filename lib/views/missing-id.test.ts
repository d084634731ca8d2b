import { describe, expect, it } from "vitest";
import { missingIdOf } from "./missing-id";

const of = (address: string) => {
  const url = new URL(address, "http://console.test");
  return missingIdOf(url.pathname, url.searchParams);
};

describe("the id a 404 names", () => {
  it("is the key, claim or message the query asked for", () => {
    expect(of("/services/orders/key?id=B-0042")).toBe("B-0042");
    expect(of("/idempotency/key?scope=pay&key=k%201")).toBe("k 1");
    expect(of("/groups/billing?claim=m-7")).toBe("m-7");
  });

  it("is the service, group or reset of the path, decoded", () => {
    expect(of("/services/no%20such")).toBe("no such");
    expect(of("/services/orders/settings")).toBe("orders");
    expect(of("/groups/g-1")).toBe("g-1");
    expect(of("/reset/999999")).toBe("999999");
  });

  it("is nothing for an address that names no id", () => {
    expect(of("/no-such-page")).toBeNull();
    expect(of("/services")).toBeNull();
    expect(of("/audit?actor=")).toBeNull();
  });

  it("keeps a malformed escape as typed", () => {
    expect(missingIdOf("/services/%E0%A4%A", new URLSearchParams())).toBe("%E0%A4%A");
  });
});
