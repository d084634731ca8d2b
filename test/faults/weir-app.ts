/**
 * A weir API node for fault tests, run as a child process: the same pieces as
 * server.ts's API door (the global store from DATABASE_URL, opened at boot and
 * re-opened per request while it is down, createApiHandler over every route,
 * the stats flusher and the journal writer), without Next. One test-only door, POST /faults/reset,
 * resets one key through the console's reset verbs (startReset + runReset).
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import { getDb, getHotDb, getStore } from "@/db/client";
import { isStoreUnavailable } from "@/db/unavailable";
import { createApiHandler } from "@/lib/http/api-handler";
import { answerClientError } from "@/lib/http/client-error";
import { readBody } from "@/lib/http/body";
import { errorToResult, writeResult } from "@/lib/http/respond";
import { createApiRoutes } from "@/lib/http/routes";
import { runReset } from "@/lib/reset/run-reset";
import { startReset } from "@/lib/reset/start-reset";
import { UnprocessableError } from "@/lib/errors";
import { stats } from "@/lib/stats/recorder";
import { startJournal } from "@/lib/journal";

const OPERATOR = { id: "faults@weir.test", role: "operator" as const };

async function resetKey(text: string): Promise<{ deleted: boolean; batchId: number | null }> {
  const { kind, subject, messageId } = JSON.parse(text) as { kind: "last_seen" | "window"; subject: string; messageId: string };
  const db = await getDb();
  let batchId: number;
  try {
    const started = await startReset({
      db,
      actor: OPERATOR,
      input: { selection: { kind, subject, mode: "key", messageId }, reason: "fault-test history" },
    });
    batchId = started.id;
  } catch (err) {
    // "nothing matches": the key had no state (or only state newer than the reset), nothing was removed.
    if (err instanceof UnprocessableError) return { deleted: false, batchId: null };
    throw err;
  }
  const done = await runReset(db, batchId);
  if (done?.status !== "done") throw new Error(`reset #${batchId} ended as ${done?.status}`);
  return { deleted: done.affected === 1, batchId };
}

async function main(): Promise<void> {
  try {
    await getStore();
  } catch (err) {
    if (!isStoreUnavailable(err)) throw err;
    console.error(`[weir-app] store unreachable at boot: ${(err as Error).message}`);
  }
  const handleApi = createApiHandler(createApiRoutes(getStore), getStore);
  stats.start(getHotDb);
  startJournal(getHotDb, getDb);
  const server = http.createServer((req, res) => {
    if (req.url === "/faults/reset" && req.method === "POST") {
      readBody(req)
        .then(resetKey)
        .then(
          (body) => writeResult(res, { status: 200, body }, "reset"),
          (err) => writeResult(res, errorToResult(err, "reset"), "reset"),
        );
      return;
    }
    void handleApi(req, res);
  });
  server.on("clientError", answerClientError);
  server.keepAliveTimeout = 65_000;
  server.requestTimeout = 30_000;
  server.listen(0, "127.0.0.1", () => {
    const { port } = server.address() as AddressInfo;
    process.send?.({ ready: true, port });
  });
  process.on("disconnect", () => process.exit(0));
}

main().catch((err: Error) => {
  console.error(`[weir-app] failed to start: ${err.stack ?? err.message}`);
  process.exit(1);
});
