"use server";
/*
 * Every export of this file is a public endpoint that anyone can call with any
 * arguments: each one checks the role itself and the verb parses the input.
 * The NATS server is the one of the server's configuration (WEIR_NATS_URL), never the caller's.
 */
import { connect } from "@nats-io/transport-node";
import { revalidatePath } from "next/cache";
import { setting } from "@/lib/config";
import { requireConsoleActor } from "@/lib/auth/console-actor";
import { runAction, type ActionResult } from "@/lib/console/action-result";
import { consoleDb } from "@/lib/console/store";
import { UnprocessableError } from "@/lib/errors";
import { previewReplayReset, startReplayReset, type ReplayPreview, type WithNats } from "@/lib/replay/replay-reset";
import { launchRun } from "@/lib/reset/runner";
import type { ResetView } from "@/lib/reset/views";
import type { ReplayRangeInput } from "@/lib/validation/replay";

const withNats: WithNats = async (work) => {
  const servers = setting("WEIR_NATS_URL");
  if (!servers) throw new UnprocessableError("this weir has no NATS server configured (WEIR_NATS_URL)");
  const nats = await connect({ servers, timeout: 5_000 });
  try {
    return await work(nats);
  } finally {
    await nats.close();
  }
};

export async function previewReplayResetAction(input: ReplayRangeInput): Promise<ActionResult<ReplayPreview>> {
  return runAction(async () => {
    const actor = await requireConsoleActor("operate");
    const db = await consoleDb();
    return previewReplayReset({ db, actor, nats: withNats, input });
  });
}

export async function startReplayResetAction(input: { range: ReplayRangeInput; reason: string; confirmation?: string }): Promise<ActionResult<ResetView[]>> {
  return runAction(async () => {
    const actor = await requireConsoleActor("operate");
    const db = await consoleDb();
    const resets = await startReplayReset({ db, actor, nats: withNats, input });
    for (const reset of resets) launchRun(consoleDb, reset.id, "reset");
    revalidatePath("/reset");
    return resets;
  });
}
