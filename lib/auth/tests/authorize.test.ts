import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { ALL_SCOPES, SYSTEM_ACTOR, type Actor, type Role, type Scopes } from "@/lib/auth/actor";
import { authorize, can } from "@/lib/auth/authorize";
import { ForbiddenError } from "@/lib/errors";

const token = (role: Role, scopes: Partial<Scopes>): Actor => ({
  id: `token:${role}`,
  role,
  via: "token",
  scopes: { services: [], consumerGroups: [], idempotencyScopes: [], ...scopes },
});
const session = (role: Role): Actor => ({ id: `${role}@weir.test`, role, via: "session", signedInAt: new Date() });

describe("authorize: the one rule for role and scope", () => {
  it("grants permissions by role, whatever the door", () => {
    expect(can(session("viewer"), "read")).toBe(true);
    expect(can(session("viewer"), "operate")).toBe(false);
    expect(can(session("operator"), "operate")).toBe(true);
    expect(can(session("operator"), "release")).toBe(true);
    expect(can(session("operator"), "admin")).toBe(false);
    expect(can(token("service", ALL_SCOPES), "decide")).toBe(true);
    expect(can(token("service", ALL_SCOPES), "operate")).toBe(false);
    expect(() => authorize(session("viewer"), "admin")).toThrow(ForbiddenError);
  });

  it("checks one id against the actor's scope", () => {
    const a = token("admin", { services: ["svc-a"] });
    expect(can(a, "admin", { kind: "services", id: "svc-a" })).toBe(true);
    expect(can(a, "admin", { kind: "services", id: "svc-b" })).toBe(false);
    expect(can(a, "read", { kind: "consumerGroups", id: "svc-a" })).toBe(false);
    expect(can(session("admin"), "admin", { kind: "services", id: "svc-b" })).toBe(true);
    expect(() => authorize(a, "admin", { kind: "services", id: "svc-b" })).toThrow('service "svc-b"');
  });

  it("allows scopes only when they are a subset of the actor's, per kind; '*' is covered only by '*'", () => {
    const a = token("admin", { services: ["svc-a", "svc-c"], consumerGroups: ["*"] });
    expect(can(a, "admin", { scopes: { services: ["svc-a"] } })).toBe(true);
    expect(can(a, "admin", { scopes: { services: ["svc-a"], consumerGroups: ["*", "g"] } })).toBe(true);
    expect(can(a, "admin", { scopes: { services: ["svc-a", "svc-b"] } })).toBe(false);
    expect(can(a, "admin", { scopes: { services: ["*"] } })).toBe(false);
    expect(can(a, "admin", { scopes: { idempotencyScopes: ["x"] } })).toBe(false);
    expect(can(a, "admin", { scopes: ALL_SCOPES })).toBe(false);
    expect(can(token("admin", ALL_SCOPES), "admin", { scopes: ALL_SCOPES })).toBe(true);
    expect(can(session("admin"), "admin", { scopes: ALL_SCOPES })).toBe(true);
    expect(() => authorize(a, "admin", { scopes: { services: ["svc-b"] } })).toThrow("outside your own scope");
  });

  it("keeps operations over every id to unscoped actors", () => {
    expect(can(token("admin", { services: ["*"], consumerGroups: ["*"] }), "admin", "unscoped")).toBe(false);
    expect(can(token("admin", ALL_SCOPES), "admin", "unscoped")).toBe(true);
    expect(can(session("admin"), "admin", "unscoped")).toBe(true);
    expect(can(SYSTEM_ACTOR, "admin", "unscoped")).toBe(true);
    expect(can(session("operator"), "admin", "unscoped")).toBe(false);
  });
});

/** Every .ts/.tsx file under a folder, skipping tests. */
function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === "node_modules" ? [] : sources(full);
    return /\.tsx?$/.test(entry.name) && !entry.name.includes(".test.") ? [full] : [];
  });
}

describe("one authorisation function", () => {
  it("is the only role check in weir's code: no second authorise, role ladder or ad hoc role comparison", () => {
    const offenders = ["app", "lib", "cli"].flatMap(sources).filter((file) => {
      const text = readFileSync(file, "utf8");
      return /function authori[sz]e\b|\bhasRole\(|\bcanOperate\(/.test(text) && !file.endsWith(path.join("lib", "auth", "authorize.ts"));
    });
    expect(offenders).toEqual([]);
  });
});
