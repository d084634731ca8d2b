"use server";
/*
 * Every export of this file is a public endpoint that anyone can call with any
 * arguments: each one checks the role itself and the verb parses the input.
 */
import { requireConsoleActor } from "@/lib/auth/console-actor";
import { runAction, type ActionResult } from "@/lib/console/action-result";
import { explainCheck, type Explanation } from "@/lib/views/explain";
import { consoleDb } from "@/lib/console/store";
import type { ExplainInput } from "@/lib/validation/console-explain";

/** Read only: what check would decide for a payload, without writing anything. */
export async function explainAction(input: ExplainInput): Promise<ActionResult<Explanation>> {
  return runAction(async () => {
    const actor = await requireConsoleActor("read");
    return explainCheck({ db: await consoleDb(), actor, input });
  });
}
