import { describe, expect, it } from "vitest";
import { hasDirective, sourceFiles, valueImportsOf } from "@/test/import-graph";

/**
 * lib/config reads process.env, which the browser does not have: it must stay out of every
 * bundle a "use client" module starts. A server action ("use server") reached from one is
 * sent as a reference, not its code, so the walk stops there. The proxy (proxy.ts) does use
 * it: Next 16 runs the proxy on the Node.js runtime.
 */
function reached(start: string): Set<string> {
  const seen = new Set([start]);
  const queue = [start];
  for (let file = queue.shift(); file !== undefined; file = queue.shift()) {
    if (file !== start && hasDirective(file, "use server")) continue;
    for (const next of valueImportsOf(file)) {
      if (seen.has(next)) continue;
      seen.add(next);
      queue.push(next);
    }
  }
  return seen;
}

const readsConfig = (start: string) => [...reached(start)].some((file) => file.startsWith("lib/config/"));

describe("the configuration module and the bundles", () => {
  it("is in no browser bundle: no client module loads it", () => {
    const clients = sourceFiles(["app", "components", "lib"], /\.test\.tsx?$/).filter((file) => hasDirective(file, "use client"));
    expect(clients.length).toBeGreaterThan(20);
    expect(clients.filter(readsConfig)).toEqual([]);
  });

  it("is loaded by the proxy and the server, which run on Node.js", () => {
    expect(readsConfig("proxy.ts")).toBe(true);
    expect(readsConfig("server.ts")).toBe(true);
  });
});
