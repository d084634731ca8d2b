import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { cliTestDatabase } from "./weir.fixture";

const { weir, count } = cliTestDatabase();

describe("weir tokens: a token's own limits", () => {
  it("sets them at creation, prints them, and lists every token with its limits", async () => {
    const created = await weir(["tokens", "create", "--name", "replay job", "--service", "orders", "--max-in-flight", "32", "--requests-per-second", "200"]);
    expect(created.code, created.stderr).toBe(0);
    expect(created.stderr).toContain("in flight 32, requests/s 200 (per node)");
    const id = /token (tok_\S+)/.exec(created.stderr)![1]!;
    expect(await count(sql`select count(*)::int as n from api_tokens where id = ${id} and max_in_flight = 32 and requests_per_second = 200`)).toBe(1);

    const plain = await weir(["tokens", "create", "--name", "plain", "--all"]);
    expect(plain.stderr).toContain("in flight default share, requests/s unlimited (per node)");

    const listed = await weir(["tokens", "list"]);
    expect(listed.code, listed.stderr).toBe(0);
    const line = listed.stdout.split("\n").find((l) => l.startsWith(id));
    expect(line).toContain('"replay job"');
    expect(line).toContain("in flight 32, requests/s 200");
    const json = await weir(["tokens", "list", "--json"]);
    const rows = json.stdout.trim().split("\n").map((l) => JSON.parse(l) as { id: string; maxInFlight: number | null });
    expect(rows.find((r) => r.id === id)?.maxInFlight).toBe(32);
  });

  it("refuses a limit that is not a positive whole number (exit 2)", async () => {
    const refused = await weir(["tokens", "create", "--name", "bad", "--all", "--max-in-flight", "0"]);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain("--max-in-flight");
  });
});
