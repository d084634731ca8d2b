import { describe, expect, it } from "vitest";
import {
  missingLine,
  needsOf,
  parseStages,
  pgModeOf,
  planBinaries,
  planChromium,
  planNats,
  planPgBouncer,
  planPostgres,
  type Missing,
  type ServerProbe,
} from "./preflight-plan";

const up: ServerProbe = { url: "postgres://postgres@127.0.0.1:5432/postgres", answer: "usable", detail: "PostgreSQL 15.20" };
const down: ServerProbe = { url: "postgres://postgres@127.0.0.1:5432/postgres", answer: "down", detail: "does not answer" };
const locked: ServerProbe = { url: "postgres://weir@127.0.0.1:5433/weir", answer: "unusable", detail: "refuses: password authentication failed" };

describe("stages and what they need", () => {
  it("runs the default stages in the suite's order, or the named ones in that order", () => {
    expect(parseStages([])).toEqual(["lint", "typecheck", "unit", "faults", "e2e"]);
    expect(parseStages(["examples"])).toEqual(["examples"]);
    expect(parseStages(["e2e", "unit"])).toEqual(["unit", "e2e"]);
    expect(() => parseStages(["units"])).toThrow(/unknown stage "units"/);
  });

  it("asks only for what the chosen stages use", () => {
    expect([...needsOf(["lint", "typecheck"])]).toEqual([]);
    expect(needsOf(["unit"])).toEqual(new Set(["postgres"]));
    // npm test never needs NATS: only the example consumer's suite does.
    expect(needsOf(parseStages([])).has("nats")).toBe(false);
    expect(needsOf(["examples"])).toEqual(new Set(["postgres", "nats"]));
    // Nor PgBouncer: weir behind it is its own suite too.
    expect(needsOf(parseStages([])).has("pgbouncer")).toBe(false);
    expect(needsOf(["pgbouncer"])).toEqual(new Set(["pgBinaries", "pgbouncer"]));
    expect(needsOf(["faults", "e2e"])).toEqual(new Set(["pgBinaries", "postgres", "chromium"]));
  });

  it("finds PgBouncer where it was named or installed, and says how to install it", () => {
    expect(planPgBouncer({ explicit: "/opt/pgb", explicitExists: true, found: "/usr/sbin/pgbouncer" })).toEqual({ kind: "use", binary: "/opt/pgb" });
    expect(planPgBouncer({ explicit: "/opt/pgb", explicitExists: false })).toMatchObject({ kind: "missing", missing: { problem: "WEIR_PGBOUNCER_BIN /opt/pgb does not exist" } });
    expect(planPgBouncer({ explicitExists: false, found: "/usr/sbin/pgbouncer" })).toEqual({ kind: "use", binary: "/usr/sbin/pgbouncer" });
    const none = planPgBouncer({ explicitExists: false });
    expect(none.kind).toBe("missing");
    expect(missingLine([(none as { missing: Missing }).missing])).toBe(
      "npm test cannot start: no pgbouncer binary. Install on Debian/Ubuntu: sudo apt-get install -y pgbouncer; on macOS: brew install pgbouncer",
    );
  });

  it("reads WEIR_TEST_PG strictly", () => {
    expect(pgModeOf(undefined)).toBe("auto");
    expect(pgModeOf("embedded")).toBe("embedded");
    expect(() => pgModeOf("pg18")).toThrow(/WEIR_TEST_PG/);
  });
});

describe("PostgreSQL", () => {
  it("uses the first server that answers and lets us create databases", () => {
    const plan = planPostgres({ mode: "auto", candidates: [locked, up], embeddedAvailable: true });
    expect(plan).toEqual({ kind: "use", url: up.url, note: "PostgreSQL 15.20" });
  });

  it("starts the embedded server when none answers, saying why", () => {
    const plan = planPostgres({ mode: "auto", candidates: [locked, down], embeddedAvailable: true });
    expect(plan.kind).toBe("embedded");
    expect(plan.kind === "embedded" && plan.reason).toMatch(/password authentication failed.*does not answer/);
  });

  it("starts the embedded server in embedded mode even when 5432 answers", () => {
    expect(planPostgres({ mode: "embedded", candidates: [up], embeddedAvailable: true })).toEqual({ kind: "embedded", reason: "WEIR_TEST_PG=embedded" });
  });

  it("fails on an explicit admin URL that does not answer instead of silently using another server", () => {
    const plan = planPostgres({ mode: "auto", explicit: down, candidates: [up], embeddedAvailable: true });
    expect(plan.kind === "missing" && plan.missing).toEqual({ problem: `WEIR_TEST_ADMIN_URL ${down.url}: does not answer` });
  });

  it("asks to install PostgreSQL only where npm has no binaries for the platform", () => {
    const plan = planPostgres({ mode: "auto", candidates: [down], embeddedAvailable: false });
    expect(plan.kind === "missing" && plan.missing.install).toBe("postgres");
  });

  it("gives the fault suite the machine's binaries, or the embedded ones (always in embedded mode)", () => {
    const system = "/usr/lib/postgresql/15/bin";
    expect(planBinaries({ mode: "auto", system, embeddedAvailable: true })).toEqual({ kind: "use", bin: system });
    expect(planBinaries({ mode: "embedded", system, embeddedAvailable: true })).toEqual({ kind: "embedded" });
    expect(planBinaries({ mode: "auto", embeddedAvailable: true })).toEqual({ kind: "embedded" });
    expect(planBinaries({ mode: "embedded", explicit: "/opt/pg/bin", system, embeddedAvailable: true })).toEqual({ kind: "use", bin: "/opt/pg/bin" });
    expect(planBinaries({ mode: "auto", embeddedAvailable: false }).kind).toBe("missing");
  });
});

describe("NATS", () => {
  const url = "127.0.0.1:4222";
  it("uses a JetStream server that answers, else starts nats-server", () => {
    expect(planNats({ url, explicit: false, probe: "jetstream" })).toEqual({ kind: "use", url });
    expect(planNats({ url, explicit: false, probe: "down", binary: "/usr/sbin/nats-server" })).toEqual({ kind: "start", binary: "/usr/sbin/nats-server" });
    expect(planNats({ url, explicit: false, probe: "no-jetstream", binary: "/usr/sbin/nats-server" }).kind).toBe("start");
  });

  it("fails when NATS_URL was set and does not answer with JetStream", () => {
    const plan = planNats({ url: "127.0.0.1:4999", explicit: true, probe: "no-jetstream", binary: "/usr/sbin/nats-server" });
    expect(plan.kind === "missing" && plan.missing).toEqual({ problem: "NATS_URL 127.0.0.1:4999 answers without JetStream (start it with -js)" });
  });

  it("asks to install nats-server when there is neither a server nor a binary", () => {
    const plan = planNats({ url, explicit: false, probe: "down" });
    expect(plan.kind === "missing" && plan.missing.install).toBe("nats");
  });
});

describe("Chromium", () => {
  const absent = { state: "absent" } as const;
  const ready = { state: "ready", path: "/pw/chrome" } as const;

  it("prefers CHROMIUM_PATH, then the machine's, then Playwright's", () => {
    const none = { explicitExists: false, triedDownload: false, playwright: ready };
    expect(planChromium({ ...none, explicit: "/opt/chrome", explicitExists: true, system: "/usr/bin/chromium" })).toEqual({ kind: "use", path: "/opt/chrome" });
    expect(planChromium({ ...none, system: "/usr/bin/chromium" })).toEqual({ kind: "use", path: "/usr/bin/chromium" });
    expect(planChromium(none)).toEqual({ kind: "use", path: "/pw/chrome" });
  });

  it("downloads once, then names what to install", () => {
    expect(planChromium({ explicitExists: false, triedDownload: false, playwright: absent })).toEqual({ kind: "download" });
    const plan = planChromium({ explicitExists: false, triedDownload: true, playwright: absent });
    expect(plan.kind === "missing" && plan.missing.install).toBe("chromium");
  });

  it("says so when Playwright's browser is there but cannot start, instead of downloading it again", () => {
    const plan = planChromium({ explicitExists: false, triedDownload: false, playwright: { state: "broken", path: "/pw/chrome" } });
    expect(plan.kind === "missing" && plan.missing).toEqual({ problem: "Playwright's Chromium (/pw/chrome) does not start: system libraries missing", install: "chromium" });
  });

  it("fails on a CHROMIUM_PATH that does not exist rather than using another browser", () => {
    const plan = planChromium({ explicit: "/nope/chrome", explicitExists: false, system: "/usr/bin/chromium", playwright: ready, triedDownload: false });
    expect(plan.kind === "missing" && plan.missing).toEqual({ problem: "CHROMIUM_PATH /nope/chrome does not exist" });
  });
});

describe("the line that stops the run", () => {
  it("names everything missing with one Debian and one macOS command, on one line", () => {
    const line = missingLine([
      { problem: "no NATS server", install: "nats" },
      { problem: "no Chromium", install: "chromium" },
    ]);
    expect(line).toBe(
      "npm test cannot start: no NATS server; no Chromium. Install on Debian/Ubuntu: sudo apt-get install -y nats-server chromium; " +
        "on macOS: brew install nats-server && brew install --cask chromium",
    );
    expect(line).not.toContain("\n");
  });

  it("installs PostgreSQL once when both the server and its binaries are missing", () => {
    const line = missingLine([
      { problem: "no PostgreSQL server", install: "postgres" },
      { problem: "no PostgreSQL server binaries", install: "pgBinaries" },
    ]);
    expect(line).toMatch(/apt-get install -y postgresql; on macOS: brew install postgresql@17 && brew services start postgresql@17$/);
  });

  it("leaves out install commands when only a setting is wrong", () => {
    expect(missingLine([{ problem: "CHROMIUM_PATH /x does not exist" }])).toBe("npm test cannot start: CHROMIUM_PATH /x does not exist.");
  });
});
