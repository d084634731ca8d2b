import type { IncomingMessage } from "node:http";
import { describe, expect, it } from "vitest";
import { clientAddressOf } from "@/lib/auth/client-address";
import { contentSecurityPolicy } from "@/lib/auth/csp";
import { originProblem } from "@/lib/auth/origin";
import { safeNextPath } from "@/lib/auth/safe-next";

const env = { publicUrl: undefined };
const headers = (entries: Record<string, string>) => new Headers(entries);

describe("Origin checks", () => {
  it("accepts the request's own origin and the configured public URL", () => {
    expect(originProblem(headers({ host: "127.0.0.1:3000", origin: "http://127.0.0.1:3000" }), env)).toBeNull();
    expect(originProblem(headers({ host: "weir.internal:3000", origin: "https://weir.example.com" }), { publicUrl: "https://weir.example.com/" })).toBeNull();
  });

  it("refuses a missing, null or foreign Origin", () => {
    expect(originProblem(headers({ host: "127.0.0.1:3000" }), env)).toMatch(/no Origin/);
    expect(originProblem(headers({ host: "127.0.0.1:3000", origin: "null" }), env)).toMatch(/null/);
    expect(originProblem(headers({ host: "127.0.0.1:3000", origin: "http://127.0.0.1:3001" }), env)).toMatch(/not this site/);
    expect(originProblem(headers({ host: "weir.example.com", origin: "https://weir.example.com.evil.io" }), env)).toMatch(/not this site/);
  });
});

describe("Content-Security-Policy", () => {
  it("allows scripts only with the nonce, and no plugins, base or framing", () => {
    const csp = contentSecurityPolicy("abc123", { dev: false, https: true });
    const scriptSrc = csp.split("; ").find((d) => d.startsWith("script-src"))!;
    expect(scriptSrc).toBe("script-src 'self' 'nonce-abc123' 'strict-dynamic'");
    expect(scriptSrc).not.toContain("unsafe");
    for (const directive of ["object-src 'none'", "base-uri 'none'", "frame-ancestors 'none'", "upgrade-insecure-requests"]) expect(csp).toContain(directive);
    expect(contentSecurityPolicy("n", { dev: false, https: false })).not.toContain("upgrade-insecure-requests");
  });
});

describe("after sign-in", () => {
  it("returns only to paths on this site", () => {
    expect(safeNextPath("/keys?service=a")).toBe("/keys?service=a");
    for (const bad of ["https://evil.example", "//evil.example", "/\\evil.example", "", null, "/sign-in", "/api/auth/demo"]) expect(safeNextPath(bad)).toBe("/");
  });
});

describe("client address", () => {
  const req = (remote: string, forwarded?: string) => ({ socket: { remoteAddress: remote }, headers: forwarded ? { "x-forwarded-for": forwarded } : {} }) as unknown as IncomingMessage;
  it("trusts X-Forwarded-For only as far as the configured proxies", () => {
    expect(clientAddressOf(req("10.0.0.1", "6.6.6.6"), 0)).toBe("10.0.0.1");
    expect(clientAddressOf(req("10.0.0.1", "6.6.6.6, 203.0.113.9"), 1)).toBe("203.0.113.9");
    expect(clientAddressOf(req("10.0.0.1"), 1)).toBe("10.0.0.1");
  });
});
