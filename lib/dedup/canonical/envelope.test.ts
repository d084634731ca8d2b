import { describe, expect, it } from "vitest";
import { catchCanonicalError } from "./catch-error.fixture";
import { parseEnvelope, parseEnvelopeAt, rehashMember, type EnvelopeFields } from "./envelope";
import { compileIgnoredPaths, type PathFilter } from "./path-filter";
import { parseJsonValueAt } from "./plain-json";
import { structuralHash } from "./structural-hash";

const body = '{"serviceId":"adapter-2","messageId":"B-007","payload": {"b":[1,2.50],"meta":{"sentAt":"t1"},"a":"é"} }';
const payloadText = '{"b":[1,2.50],"meta":{"sentAt":"t1"},"a":"é"}';

describe("parseEnvelope", () => {
  it("reads ids, the payload's raw text and its hash in one pass", () => {
    const envelope = parseEnvelope(body, { hashedField: "payload", keepCanonical: true });
    expect(envelope.fields).toEqual({ serviceId: "adapter-2", messageId: "B-007" });
    expect(Object.getPrototypeOf(envelope.fields)).toBeNull();
    const hashed = envelope.hashed!;
    expect(hashed.raw).toBe(payloadText);
    expect(body.slice(hashed.start, hashed.end)).toBe(payloadText);
    expect(hashed.hash).toBe(structuralHash(payloadText).hash);
    expect(hashed.canonical).toBe('{"a":"é","b":[1,2.50],"meta":{"sentAt":"t1"}}');
    expect(envelope.end).toBe(body.length);
  });

  it("picks ignored paths from the members read before the payload", () => {
    const tries = new Map<string, PathFilter | null>([["adapter-2", compileIgnoredPaths(["/meta/sentAt"])]]);
    const seen: EnvelopeFields[] = [];
    const ignored = (fields: Readonly<EnvelopeFields>) => {
      seen.push({ ...fields });
      return typeof fields.serviceId === "string" ? tries.get(fields.serviceId) : undefined;
    };
    const envelope = parseEnvelope(body, { hashedField: "payload", filter: ignored });
    expect(seen).toEqual([{ serviceId: "adapter-2", messageId: "B-007" }]);
    expect(envelope.hashed!.filter).toBe(tries.get("adapter-2"));
    expect(envelope.hashed!.hash).toBe(structuralHash('{"a":"é","b":[1,2.50],"meta":{}}').hash);
  });

  it("lets the caller rehash when the payload came before the service id", () => {
    const text = '{"payload":{"meta":{"sentAt":"t2"},"a":1},"serviceId":"s"}';
    const envelope = parseEnvelope(text, { hashedField: "payload", filter: () => undefined });
    expect(envelope.hashed!.filter).toBeUndefined();
    const trie = compileIgnoredPaths(["/meta/sentAt"]);
    const rehashed = rehashMember(text, envelope.hashed!, trie);
    expect(rehashed.hash).toBe(structuralHash('{"a":1,"meta":{}}').hash);
    expect(rehashed.filter).toBe(trie);
    expect(rehashMember(text, envelope.hashed!, null).hash).toBe(envelope.hashed!.hash);
  });

  it("accepts an envelope without the hashed member, and any member order", () => {
    expect(parseEnvelope('{"messageId":"m"}', { hashedField: "payload" }).hashed).toBeUndefined();
    expect(parseEnvelope(" {} ", { hashedField: "payload" }).fields).toEqual({});
  });

  it("keeps __proto__ as an ordinary member", () => {
    const { fields } = parseEnvelope('{"__proto__":{"polluted":true},"messageId":"m"}', { hashedField: "payload" });
    expect(Object.keys(fields)).toEqual(["__proto__", "messageId"]);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it("refuses duplicates, in the envelope and in the payload", () => {
    const options = { hashedField: "payload" };
    expect(catchCanonicalError(() => parseEnvelope('{"payload":1,"payload":2}', options))).toMatchObject({
      code: "duplicate_field",
      path: "/payload",
      position: 13,
    });
    expect(catchCanonicalError(() => parseEnvelope('{"messageId":"a","messageId":"b"}', options)).path).toBe("/messageId");
    expect(catchCanonicalError(() => parseEnvelope('{"payload":{"a":{"x":1,"x":2}}}', options))).toMatchObject({
      code: "duplicate_field",
      path: "/payload/a/x",
      position: 23,
    });
  });

  it("reports payload errors with absolute positions and paths", () => {
    const error = catchCanonicalError(() => parseEnvelope('{"serviceId":"s","payload":{"a":[1,]}}', { hashedField: "payload" }));
    expect(error).toMatchObject({ code: "invalid_json", position: 35, path: "/payload/a/1" });
    expect(catchCanonicalError(() => parseEnvelope('{"serviceId":"s"} x', { hashedField: "payload" })).position).toBe(18);
    expect(catchCanonicalError(() => parseEnvelope("[1]", { hashedField: "payload" })).code).toBe("invalid_json");
  });

  it("limits the payload's depth from the payload itself", () => {
    const nested = (depth: number) => "[".repeat(depth) + "]".repeat(depth);
    expect(parseEnvelope(`{"payload":${nested(64)}}`, { hashedField: "payload" }).hashed!.raw).toBe(nested(64));
    expect(catchCanonicalError(() => parseEnvelope(`{"payload":${nested(65)}}`, { hashedField: "payload" })).code).toBe(
      "too_deep",
    );
  });

  it("parses an envelope in the middle of a batch", () => {
    const batch = '[{"messageId":"1","payload":{"a":1}},{"messageId":"2","payload":[]}]';
    const first = parseEnvelopeAt(batch, 1, { hashedField: "payload" });
    const second = parseEnvelopeAt(batch, first.end + 1, { hashedField: "payload" });
    expect([first.fields.messageId, second.fields.messageId]).toEqual(["1", "2"]);
    expect(second.hashed!.raw).toBe("[]");
    expect(second.end).toBe(batch.length - 1);
  });
});

describe("parseJsonValueAt", () => {
  it("returns plain values and the end offset", () => {
    const text = 'x {"a":[1,-2.5e3,"\\u00e9",true,false,null],"n":{"__proto__":1}} y';
    const { value, end } = parseJsonValueAt(text, 1);
    expect(value).toEqual({ a: [1, -2500, "é", true, false, null], n: { ["__proto__"]: 1 } });
    expect(Object.getPrototypeOf((value as { n: object }).n)).toBeNull();
    expect(Object.hasOwn((value as { n: object }).n, "__proto__")).toBe(true);
    expect(end).toBe(text.length - 2);
  });

  it("refuses what JSON.parse would silently accept", () => {
    expect(catchCanonicalError(() => parseJsonValueAt('{"a":1,"a":2}', 0))).toMatchObject({ code: "duplicate_field", path: "/a" });
    expect(catchCanonicalError(() => parseJsonValueAt("[".repeat(65) + "]".repeat(65), 0)).code).toBe("too_deep");
    expect(catchCanonicalError(() => parseJsonValueAt("[1,]", 0))).toMatchObject({ code: "invalid_json", path: "/1" });
  });
});
