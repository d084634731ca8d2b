// First: a bad variable stops the node before any module reads one.
import "@/lib/config/check-at-start";
import http from "node:http";
import { loadConfig, type Config } from "@/lib/config";
import { closeStore, getDb, getHotDb, getStore } from "@/db/client";
import { isStoreUnavailable } from "@/db/unavailable";
import { citusRoutingHint, isCitus } from "@/db/citus";
import { authEnv } from "@/lib/auth/auth-env";
import { bootstrapAuth, bootstrapAuthOnceReachable } from "@/lib/auth/bootstrap";
import { stampClientAddress } from "@/lib/auth/client-address";
import { createApiHandler } from "@/lib/http/api-handler";
import { isApiPath } from "@/lib/http/is-api-path";
import { answerClientError } from "@/lib/http/client-error";
import { withOutageStatus } from "@/lib/console/outage-status";
import { createApiRoutes } from "@/lib/http/routes";
import { startDemo } from "@/lib/demo/start-demo";
import { startCleanupSchedule } from "@/lib/dedup/window/cleanup";
import { runRetention } from "@/lib/erase/retention";
import { cleanupPassObserver, observeRetentionPass } from "@/lib/metrics";
import { stats } from "@/lib/stats/recorder";
import { startJournal } from "@/lib/journal";
import { startTracing } from "@/lib/telemetry/otel-sdk";

/**
 * Opens the store at boot and prepares sign-in (first admin, demo admin and token);
 * a database that is down is not fatal (the API answers 503 until it is back).
 */
async function openStoreAtBoot(): Promise<{ demoToken?: string }> {
  try {
    const store = await getStore();
    console.log(`[weir] store: ${store.kind === "pglite" ? "embedded PGlite" : "PostgreSQL"}`);
    const hint = citusRoutingHint(await isCitus(store.db), store.hot !== undefined);
    if (hint) console.warn(hint);
    return await bootstrapAuth(store.db);
  } catch (err) {
    if (!isStoreUnavailable(err)) throw err;
    console.error(`[weir] store unreachable at boot (${(err as Error).message}); answering 503 until it is back`);
    void bootstrapAuthOnceReachable(getDb);
    return {};
  }
}

async function prepareNext(config: Config): Promise<(req: http.IncomingMessage, res: http.ServerResponse) => Promise<void>> {
  // Loaded here, not at the top: an API-only node never pays Next's memory.
  const { default: next } = await import("next");
  const app = next({ dev: config.WEIR_DEV, dir: process.cwd(), hostname: config.HOST, port: config.PORT, customServer: true });
  await app.prepare();
  return app.getRequestHandler();
}

async function consoleDisabled(_req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
  res.writeHead(404, { "content-type": "text/plain; charset=utf-8" }).end("the console is not served by this node (WEIR_API_ONLY=1)\n");
}

async function main(): Promise<void> {
  const config = loadConfig();
  const { HOST: host, PORT: port, WEIR_API_ONLY: apiOnly } = config;
  const tracing = await startTracing();
  const { demoToken } = await openStoreAtBoot();
  const { trustedProxyHops } = authEnv();
  const handleNext = apiOnly ? consoleDisabled : withOutageStatus(await prepareNext(config));
  const handleApi = createApiHandler(createApiRoutes(getStore), getStore);
  // With WEIR_CITUS_ROUTE_URLS the flushes go to the workers; the journal's partitions are made on the coordinator.
  stats.start(getHotDb);
  const journal = startJournal(getHotDb, getDb);
  const cleanup = startCleanupSchedule(getDb, config.WEIR_CLEANUP_INTERVAL_MS, {
    onPass: cleanupPassObserver(getDb),
    afterPass: async (db) => observeRetentionPass(await runRetention(db)),
  });

  const server = http.createServer((req, res) => {
    stampClientAddress(req, trustedProxyHops);
    if (isApiPath(req.url)) return void handleApi(req, res);
    handleNext(req, res).catch((err: Error) => {
      console.error("[weir] console request failed:", err);
      if (!res.headersSent) res.writeHead(500).end("internal error");
    });
  });
  server.on("clientError", answerClientError);
  server.keepAliveTimeout = 65_000;
  server.requestTimeout = 30_000;
  server.listen(port, host, () => {
    console.log(`[weir] ${apiOnly ? "API only" : "console and API"} on http://${host === "0.0.0.0" ? "localhost" : host}:${port}`);
    if (demoToken) {
      startDemo(`http://127.0.0.1:${port}`, demoToken);
      console.log("[weir] demo: the console signs you in automatically as the demo admin");
    }
  });

  const shutdown = async (signal: string) => {
    console.log(`[weir] ${signal}: shutting down`);
    server.close();
    stats.stop();
    journal.stop();
    await cleanup.stop();
    await getHotDb().then((db) => Promise.all([stats.flush(db), journal.drain(db)])).catch(() => undefined);
    await tracing?.shutdown().catch(() => undefined);
    await closeStore().catch(() => undefined);
    process.exit(0);
  };
  process.once("SIGINT", () => void shutdown("SIGINT"));
  process.once("SIGTERM", () => void shutdown("SIGTERM"));
}

main().catch((err: Error) => {
  console.error(`[weir] failed to start: ${err.message}`);
  process.exit(1);
});
