import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { ROOT, sourceFiles as filesUnder, specifiersOf as importsOf, targetOf } from "@/test/import-graph";

/**
 * The rooms of weir and what each may import (docs/architecture.md, "Rooms"). A room
 * only imports rooms below it, so a change has one room to go to and the check path
 * never climbs back up (handler -> verb -> statement). Tests, fixtures and test
 * helpers may import anything; they are not checked.
 */
const BASE = ["lib/errors", "lib/config", "lib/telemetry", "lib/csv", "lib/seeded-random"];
const ENGINE = [...BASE, "db", "lib/dedup/canonical", "lib/validation"];
const RULES: Record<string, readonly string[]> = {
  "lib/errors": [],
  // Every environment variable, parsed by one schema: below everything, so anything may read it.
  "lib/config": [],
  "lib/csv": [],
  "lib/seeded-random": [],
  "lib/telemetry": ["lib/errors"],
  db: ["lib/errors", "lib/config"],
  // The one-pass parse and hash: the hot path's exception, usable by the typed client too.
  "lib/dedup/canonical": ["lib/errors"],
  "lib/validation": ["lib/errors", "lib/dedup/canonical", "lib/reset"],
  "lib/auth": [...BASE, "db", "lib/validation"],
  "lib/reset": [...BASE, "db", "lib/auth", "lib/validation"],
  // What weir forgets: on request (erasure) and by age (retention jobs).
  "lib/erase": [...BASE, "db", "lib/auth", "lib/validation"],
  // A JetStream range read and turned into resets (reset's list mode): above lib/reset.
  "lib/replay": [...BASE, "lib/auth", "lib/validation", "db", "lib/reset"],
  // The engine: decisions and their verbs. Never the services area, the stats, the metrics or a door.
  "lib/dedup": [...ENGINE, "lib/auth"],
  "lib/services": [...ENGINE, "lib/auth", "lib/dedup"],
  "lib/stats": [...BASE, "db"],
  // The decision journal: a subscriber of the decision event, like the stats, and its level verb.
  "lib/journal": [...BASE, "db", "lib/auth", "lib/validation"],
  "lib/demo": [...BASE, "db", "lib/auth", "lib/dedup", "lib/reset", "lib/services", "lib/stats"],
  // The console's read models: what its pages show.
  "lib/views": [...ENGINE, "lib/auth", "lib/dedup", "lib/reset", "lib/services", "lib/stats", "lib/journal", "lib/console"],
  // The console door's plumbing: its store access and its one error mapping for actions and route handlers.
  "lib/console": [...BASE, "db", "lib/auth", "lib/validation", "lib/dedup/canonical"],
  "lib/audit": [...ENGINE, "lib/auth", "lib/console", "lib/views"],
  "lib/metrics": [...BASE, "db", "lib/dedup", "lib/journal", "lib/erase"],
  "lib/http": [...ENGINE, "lib/auth", "lib/dedup", "lib/reset", "lib/services", "lib/audit", "lib/metrics", "lib/journal", "lib/erase", "lib/views"],
  "lib/actions": [...ENGINE, "lib/auth", "lib/dedup", "lib/reset", "lib/services", "lib/audit", "lib/console", "lib/views", "lib/journal", "lib/erase", "lib/replay"],
  components: [...BASE, "lib/actions", "lib/auth", "lib/console", "lib/views", "lib/validation"],
  // Routing only: never db/ or the engine directly.
  app: [...BASE, "components", "lib/actions", "lib/audit", "lib/auth", "lib/console", "lib/views", "lib/reset", "lib/erase", "lib/services", "lib/validation"],
  cli: [...ENGINE, "lib/auth", "lib/dedup", "lib/demo", "lib/http", "lib/reset", "lib/erase", "lib/replay", "lib/services", "lib/journal"],
};

const NOT_CHECKED = /\.test\.tsx?$|\.fixture\.ts$|test-helpers\.ts$|\.d\.ts$/;

/** The room of a path relative to the repository: lib/<area>, lib/dedup/canonical, or a top-level folder. */
function roomOf(file: string): string {
  const parts = file.split("/");
  if (file.startsWith("lib/dedup/canonical/")) return "lib/dedup/canonical";
  if (parts[0] === "lib") return parts.length > 2 ? `lib/${parts[1]}` : `lib/${parts[1]!.replace(/\.tsx?$/, "")}`;
  return parts[0]!;
}

const sourceFiles = (dir: string) => filesUnder([dir], NOT_CHECKED);

describe("rooms and their imports", () => {
  it("names every room that holds source files", () => {
    const rooms = new Set(["app", "components", "cli", "db", "lib"].flatMap(sourceFiles).map(roomOf));
    expect([...rooms].filter((room) => !(room in RULES))).toEqual([]);
  });

  it("imports only rooms below, so nothing climbs back up", () => {
    const breaches: string[] = [];
    for (const file of ["app", "components", "cli", "db", "lib"].flatMap(sourceFiles)) {
      const from = roomOf(file);
      const allowed = RULES[from] ?? [];
      for (const specifier of importsOf(file)) {
        const target = targetOf(file, specifier);
        if (target === undefined) continue;
        const to = roomOf(target);
        if (to !== from && !allowed.includes(to)) breaches.push(`${file} (${from}) imports ${specifier} (${to})`);
      }
    }
    expect(breaches).toEqual([]);
  });

  it("keeps the engine out of the services area: the check's settings cache is in its own room", () => {
    expect(roomOf("lib/dedup/last-seen/service-config.ts")).toBe("lib/dedup");
    expect(RULES["lib/dedup"]).not.toContain("lib/services");
    expect(roomOf("lib/dedup/canonical/structural-hash.ts")).toBe("lib/dedup/canonical");
    expect(roomOf("lib/errors.ts")).toBe("lib/errors");
  });

  it("matches the room table in docs/architecture.md, so the doc cannot drift from these rules", () => {
    const doc = readFileSync(path.join(ROOT, "docs/architecture.md"), "utf8");
    const table = doc.slice(doc.indexOf("<!-- rooms"), doc.indexOf("<!-- /rooms -->"));
    const ticked = (cell: string) => [...cell.matchAll(/`([^`]+)`/g)].map((m) => m[1]!);
    const documented: Record<string, string[]> = {};
    for (const line of table.split("\n").filter((l) => l.startsWith("| `"))) {
      const [room, , mayImport] = line.split(" | ");
      const allowed = ticked(mayImport!).filter((name) => name in RULES || name === "components");
      documented[ticked(room!)[0]!] = [...new Set([...(/\bbase\b/.test(mayImport!) ? BASE : []), ...allowed])].sort();
    }
    const rules = Object.fromEntries(Object.entries(RULES).map(([room, allowed]) => [room, [...allowed].sort()]));
    expect(documented, "update the room table in docs/architecture.md with the rules above").toEqual(rules);
  });
});
