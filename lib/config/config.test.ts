import { afterEach, describe, expect, it } from "vitest";
import { storeConfigFromEnv } from "@/db/config";
import { coalescerOptionsFromEnv } from "@/lib/dedup/coalescer";
import { MAX_WINDOW_SECONDS } from "@/lib/validation/limits";
import { ConfigError, defaultOf, loadConfig, setting, VARIABLES } from "./index";
import { LONGEST_TTL_SECONDS } from "./variables";

const touched = ["WEIR_PG_POOL_MAX", "WEIR_COALESCE_MAX_IN_FLIGHT", "WEIR_JOURNAL", "WEIR_CLEANUP_DUTY"] as const;
const before = Object.fromEntries(touched.map((name) => [name, process.env[name]]));

afterEach(() => {
  for (const [name, value] of Object.entries(before)) {
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  }
});

describe("the configuration", () => {
  it("gives every variable its default when nothing is set", () => {
    const config = loadConfig({});
    expect(config.WEIR_PG_POOL_MAX).toBe(20);
    expect(config.PORT).toBe(3000);
    expect(config.WEIR_PG_SEND_TIMEOUTS).toBe(true);
    expect(config.WEIR_JOURNAL_RETENTION).toBe(7 * 86_400_000);
    expect(config.WEIR_ALLOWED_ORIGINS).toEqual([]);
    expect(config.WEIR_MIN_IN_FLIGHT).toBeUndefined();
  });

  it("treats an empty or blank value as unset, for every variable", () => {
    const blank = Object.fromEntries(Object.keys(VARIABLES).map((name) => [name, " "]));
    expect(loadConfig(blank)).toEqual(loadConfig({}));
    expect(loadConfig({ WEIR_PG_POOL_MAX: "" }).WEIR_PG_POOL_MAX).toBe(20);
  });

  it("parses numbers, flags, durations, lists and URLs", () => {
    const config = loadConfig({
      WEIR_PG_POOL_MAX: " 8 ",
      WEIR_PG_PREPARED: "0",
      WEIR_JOURNAL_RETENTION: "36h",
      WEIR_ALLOWED_ORIGINS: "https://a.example, https://b.example,,",
      WEIR_CLEANUP_DUTY: ".25",
      WEIR_PUBLIC_URL: "https://weir.example",
      DATABASE_URL: "postgresql://weir@db/weir",
      WEIR_CITUS_ROUTE_URLS: "postgres://weir@worker-1/weir, postgresql://weir@worker-2:6432/weir,",
    });
    expect(config.WEIR_CITUS_ROUTE_URLS).toEqual(["postgres://weir@worker-1/weir", "postgresql://weir@worker-2:6432/weir"]);
    expect(config).toMatchObject({ WEIR_PG_POOL_MAX: 8, WEIR_PG_PREPARED: false, WEIR_JOURNAL_RETENTION: 36 * 3_600_000, WEIR_CLEANUP_DUTY: 0.25 });
    expect(config.WEIR_ALLOWED_ORIGINS).toEqual(["https://a.example", "https://b.example"]);
  });

  it("refuses bad values, naming every variable at once", () => {
    const bad = { WEIR_PG_POOL_MAX: "twenty", WEIR_CLEANUP_DUTY: "0", WEIR_JOURNAL: "maybe", PORT: "70000", WEIR_JOURNAL_RETENTION: "1w", WEIR_PUBLIC_URL: "weir.example" };
    let error: unknown;
    try {
      loadConfig(bad);
    } catch (err) {
      error = err;
    }
    expect(error).toBeInstanceOf(ConfigError);
    const problems = (error as ConfigError).problems;
    expect(problems).toHaveLength(6);
    expect(problems).toContain('WEIR_PG_POOL_MAX must be a whole number, got "twenty"');
    expect(problems).toContain('WEIR_CLEANUP_DUTY must be more than 0, got "0"');
    expect(problems).toContain('WEIR_JOURNAL must be one of on, off, got "maybe"');
    expect(problems).toContain('PORT must be at most 65535, got "70000"');
    expect((error as Error).message).toMatch(/^6 variables are not valid:\n {2}/);
  });

  it("keeps per-minute stats 35 days unless told, and never less than 2 days", () => {
    expect(loadConfig({}).WEIR_STATS_MINUTE_RETENTION).toBe(35 * 86_400_000);
    expect(loadConfig({ WEIR_STATS_MINUTE_RETENTION: "48h" }).WEIR_STATS_MINUTE_RETENTION).toBe(2 * 86_400_000);
    expect(() => loadConfig({ WEIR_STATS_MINUTE_RETENTION: "36h" })).toThrow('WEIR_STATS_MINUTE_RETENTION must be at least 2d, got "36h"');
  });

  it("never echoes a secret's value", () => {
    expect(() => loadConfig({ WEIR_AUTH_SECRET: "hunter2" })).toThrow("WEIR_AUTH_SECRET must be at least 32 characters (value not shown)");
    expect(() => loadConfig({ DATABASE_URL: "mysql://root:hunter2@db" })).toThrow(/^DATABASE_URL must be a postgres or postgresql URL \(value not shown\)$/);
    // One bad entry refuses the whole list, still without echoing it.
    expect(() => loadConfig({ WEIR_CITUS_ROUTE_URLS: "postgres://weir:hunter2@worker-1/weir,worker-2:5432" })).toThrow(
      /^WEIR_CITUS_ROUTE_URLS must be postgres or postgresql URLs, separated by commas \(value not shown\)$/,
    );
  });

  it("reads the environment as it is now, so a test that sets a variable sees it", () => {
    process.env.WEIR_PG_POOL_MAX = "6";
    expect(setting("WEIR_PG_POOL_MAX")).toBe(6);
    process.env.WEIR_PG_POOL_MAX = "";
    expect(setting("WEIR_PG_POOL_MAX")).toBe(20);
    process.env.WEIR_JOURNAL = "off";
    expect(setting("WEIR_JOURNAL")).toBe("off");
    process.env.WEIR_CLEANUP_DUTY = "2";
    expect(() => setting("WEIR_CLEANUP_DUTY")).toThrow('WEIR_CLEANUP_DUTY must be at most 1, got "2"');
  });

  it("gives every reader the same pool size when WEIR_PG_POOL_MAX is set but empty", () => {
    delete process.env.WEIR_COALESCE_MAX_IN_FLIGHT;
    process.env.WEIR_PG_POOL_MAX = "";
    expect(storeConfigFromEnv().poolMax).toBe(20);
    expect(coalescerOptionsFromEnv().maxInFlight).toBe(4); // half the pool, at most 4 (it derived 1 from "")
    process.env.WEIR_PG_POOL_MAX = "2";
    expect(storeConfigFromEnv().poolMax).toBe(2);
    expect(coalescerOptionsFromEnv().maxInFlight).toBe(1);
  });

  it("gives the default of a variable", () => {
    expect(defaultOf("WEIR_SESSION_SECONDS")).toBe(8 * 3600);
    expect(defaultOf("WEIR_MAX_IN_FLIGHT_PER_CREDENTIAL")).toBeUndefined();
  });

  it("bounds the default window TTL by the longest window", () => {
    expect(LONGEST_TTL_SECONDS).toBe(MAX_WINDOW_SECONDS);
  });
});
