"use server";
/*
 * Every export of this file is a public endpoint that anyone can call with any
 * arguments: each one checks the role itself and the verb parses the input
 * (and asks for a recent sign-in and room in the destructive-operation limit).
 */
import { requireConsoleActor } from "@/lib/auth/console-actor";
import { runAction, type ActionResult } from "@/lib/console/action-result";
import { consoleDb } from "@/lib/console/store";
import { eraseKeys, type EraseResult } from "@/lib/erase/erase-keys";
import { previewErase, type ErasePreview } from "@/lib/erase/preview-erase";
import type { EraseInput, EraseSelectionInput } from "@/lib/validation/erase";

export async function previewEraseAction(input: EraseSelectionInput): Promise<ActionResult<ErasePreview>> {
  return runAction(async () => {
    const actor = await requireConsoleActor("operate");
    return previewErase({ db: await consoleDb(), actor, input });
  });
}

export async function eraseAction(input: EraseInput): Promise<ActionResult<EraseResult>> {
  return runAction(async () => {
    const actor = await requireConsoleActor("operate");
    return eraseKeys({ db: await consoleDb(), actor, input });
  });
}
