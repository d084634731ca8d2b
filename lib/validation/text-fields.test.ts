import { beforeAll, describe, expect, it } from "vitest";
import { startTestApi, type TestApi } from "@/test/api-server";
import { createTestDatabase, type TestDatabase } from "@/test/test-db";
import { jsonPointerSchema, serviceSettingsSchema } from "./services";
import { createTokenSchema, createUserSchema, revokeTokenSchema, setUserRoleSchema } from "./tokens";
import { reasonSchema } from "./window";
import { startResetSchema } from "./reset";
import { auditFilterSchema } from "./console-audit";
import { keyRefSchema } from "./console-keys";

/**
 * PostgreSQL text cannot hold NUL: every free-text field must refuse it as bad
 * input (400, naming the field) before it reaches a statement, never as a 500.
 */
const NUL = "a\u0000b";

let store: TestDatabase;
let api: TestApi;

beforeAll(async () => {
  store = await createTestDatabase();
  api = await startTestApi(async () => store);
});

describe("NUL in a text field", () => {
  it("is refused by every shared schema, naming the field", () => {
    const refusals: [string, { success: boolean; error?: { issues: { path: PropertyKey[] }[] } }, string][] = [
      ["display name", serviceSettingsSchema.safeParse({ displayName: NUL }), "displayName"],
      ["ignored path", serviceSettingsSchema.safeParse({ ignoredPaths: [`/${NUL}`] }), "0"],
      ["token name", createTokenSchema.safeParse({ name: NUL }), "name"],
      ["token reason", revokeTokenSchema.safeParse({ id: "tok_abcdefgh", reason: NUL }), "reason"],
      ["user name", createUserSchema.safeParse({ email: "a@example.com", name: NUL, password: "long enough password" }), "name"],
      ["role reason", setUserRoleSchema.safeParse({ role: "viewer", reason: NUL }), "reason"],
      ["reset prefix", startResetSchema.safeParse({ selection: { kind: "last_seen", subject: "svc", mode: "filter", prefix: NUL }, reason: "r" }), "prefix"],
      ["reset confirmation", startResetSchema.safeParse({ selection: { kind: "last_seen", subject: "svc", mode: "key", messageId: "m" }, reason: "r", confirmation: NUL }), "confirmation"],
      ["audit filter", auditFilterSchema.safeParse({ target: "\u0000" }), "target"],
      ["key reference", keyRefSchema.safeParse({ serviceId: "svc", messageId: NUL }), "messageId"],
    ];
    for (const [label, result, field] of refusals) {
      expect(result.success, label).toBe(false);
      expect(result.error!.issues.map((issue) => String(issue.path.at(-1))), label).toContain(field);
    }
    expect(reasonSchema.safeParse(NUL).success).toBe(false);
    expect(jsonPointerSchema.safeParse(`/${NUL}`).success).toBe(false);
    expect(reasonSchema.safeParse("  replay INC-7  ").data).toBe("replay INC-7");
  });

  it("is a 400 naming the field on every API route that takes text", async () => {
    const cases: [string, string, unknown, string][] = [
      ["PUT", "/api/v1/services/nul-svc", { displayName: NUL }, "displayName"],
      ["PUT", "/api/v1/services/nul-svc", { ignoredPaths: [`/${NUL}`] }, "ignoredPaths[0]"],
      ["POST", "/api/v1/tokens", { name: NUL }, "name"],
      ["POST", "/api/v1/tokens", { name: "ok", reason: NUL }, "reason"],
      ["DELETE", "/api/v1/tokens/tok_abcdefghij", { reason: NUL }, "reason"],
      ["POST", "/api/v1/users", { email: "nul@example.com", password: "long enough password", name: NUL }, "name"],
      ["PUT", "/api/v1/users/someone/role", { role: "viewer", reason: NUL }, "reason"],
      ["PUT", "/api/v1/consumer-groups/nul-group", { ttlSeconds: 60, reason: NUL }, "reason"],
      ["PUT", "/api/v1/idempotency-scopes/nul-scope", { reason: NUL }, "reason"],
      ["POST", "/api/v1/check", { serviceId: "nul-svc", messageId: NUL, payload: 1 }, "messageId"],
    ];
    for (const [method, path, body, field] of cases) {
      const response = await api.request(method, path, body);
      const label = `${method} ${path} ${JSON.stringify(body)}: ${JSON.stringify(response.body)}`;
      expect(response.status, label).toBe(400);
      expect(response.body.error.field, label).toBe(field);
    }
  });

  it("is a 400 in a stored idempotency response header", async () => {
    const begin = await api.request("POST", "/api/v1/idempotency/nul-scope/begin", { key: "k1", request: { a: 1 } });
    expect(begin.status).toBe(201);
    const complete = await api.request("POST", "/api/v1/idempotency/nul-scope/complete", {
      key: "k1",
      request: { a: 1 },
      attempt: begin.body.attempt,
      response: { status: 200, body: "{}", headers: { "x-trace": NUL } },
    });
    expect(complete.status, JSON.stringify(complete.body)).toBe(400);
    expect(complete.body.error.field).toBe("response.headers.x-trace");
  });
});
