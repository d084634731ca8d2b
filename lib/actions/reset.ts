"use server";
/*
 * Every export of this file is a public endpoint that anyone can call with any
 * arguments: each one checks the role itself and the verb parses the input.
 */
import { revalidatePath } from "next/cache";
import { requireConsoleActor } from "@/lib/auth/console-actor";
import { runAction, type ActionResult } from "@/lib/console/action-result";
import { consoleDb } from "@/lib/console/store";
import { previewReset, type ResetPreview } from "@/lib/reset/preview-reset";
import { launchRun } from "@/lib/reset/runner";
import { startReset } from "@/lib/reset/start-reset";
import { undoReset } from "@/lib/reset/undo-reset";
import type { ResetView } from "@/lib/reset/views";
import type { ResetSelectionInput, StartResetInput, UndoResetInput } from "@/lib/validation/reset";

export async function previewResetAction(input: ResetSelectionInput): Promise<ActionResult<ResetPreview>> {
  return runAction(async () => {
    const actor = await requireConsoleActor("operate");
    return previewReset({ db: await consoleDb(), actor, input });
  });
}

export async function startResetAction(input: StartResetInput): Promise<ActionResult<ResetView>> {
  return runAction(async () => {
    const actor = await requireConsoleActor("operate");
    const reset = await startReset({ db: await consoleDb(), actor, input });
    launchRun(consoleDb, reset.id, "reset");
    revalidatePath("/reset");
    return reset;
  });
}

export async function undoResetAction(input: UndoResetInput): Promise<ActionResult<ResetView>> {
  return runAction(async () => {
    const actor = await requireConsoleActor("operate");
    const reset = await undoReset({ db: await consoleDb(), actor, input });
    launchRun(consoleDb, reset.id, "undo");
    revalidatePath("/reset");
    return reset;
  });
}
