import { describe, expect, it } from "vitest";
import { structuralHash } from "@/lib/dedup/canonical/structural-hash";
import { hashOfMember } from "./request-hash";

describe("hashOfMember", () => {
  it("equals the structural hash of the member's own text, whatever its position and field order", () => {
    const request = '{"amount": 10.50, "to": {"iban": "DE00", "name": "A"}}';
    const expected = structuralHash(request).hash;
    expect(hashOfMember(`{"key":"k","request":${request}}`, "request")).toBe(expected);
    expect(hashOfMember(`{ "request" : ${request} , "key" : "k" }`, "request")).toBe(expected);
    expect(hashOfMember(`{"key":"k","request":{"to":{"name":"A","iban":"DE00"},"amount":10.50}}`, "request")).toBe(expected);
  });

  it("keeps numbers exact: integers beyond 2^53 do not collide", () => {
    const a = hashOfMember('{"request": {"id": 9007199254740993}}', "request");
    const b = hashOfMember('{"request": {"id": 9007199254740992}}', "request");
    expect(a).not.toBe(b);
  });

  it("is undefined when the member is absent", () => {
    expect(hashOfMember('{"key": "k", "requestHash": "x"}', "request")).toBeUndefined();
    expect(hashOfMember("{}", "request")).toBeUndefined();
  });
});
