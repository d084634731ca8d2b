"use server";
/*
 * Every export of this file is a public endpoint that anyone can call with any
 * arguments: each one checks the role itself and the verb parses the input.
 */
import { revalidatePath } from "next/cache";
import { requireConsoleActor } from "@/lib/auth/console-actor";
import { runAction, type ActionResult } from "@/lib/console/action-result";
import { consoleDb } from "@/lib/console/store";
import { setJournalLevel, type SetJournalLevelInput, type SetJournalLevelResult } from "@/lib/journal/set-level";

/** Sets what the journal keeps of one service's, group's or scope's answers; audited with the reason given. */
export async function setJournalLevelAction(input: SetJournalLevelInput): Promise<ActionResult<SetJournalLevelResult>> {
  return runAction(async () => {
    const actor = await requireConsoleActor("operate");
    const result = await setJournalLevel({ db: await consoleDb(), actor, input });
    revalidatePath("/", "layout");
    return result;
  });
}
