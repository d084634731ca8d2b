"use server";
/*
 * Every export of this file is a public endpoint that anyone can call with any
 * arguments: each one checks the role itself and the verb parses the input.
 */
import { revalidatePath } from "next/cache";
import { requireConsoleActor } from "@/lib/auth/console-actor";
import { guardDestructive } from "@/lib/auth/recent-sign-in";
import { runAction, type ActionResult } from "@/lib/console/action-result";
import { changeGroupTtl, previewGroupTtl } from "@/lib/console/group-ttl";
import { consoleDb } from "@/lib/console/store";
import type { TtlPreview } from "@/lib/dedup/window/ttl-preview";
import type { TtlChangeInput, TtlPreviewInput } from "@/lib/validation/console-groups";

export async function previewTtlAction(input: TtlPreviewInput): Promise<ActionResult<TtlPreview>> {
  return runAction(async () => {
    const actor = await requireConsoleActor("operate");
    return previewGroupTtl({ db: await consoleDb(), actor, input });
  });
}

export async function changeTtlAction(input: TtlChangeInput): Promise<ActionResult<Awaited<ReturnType<typeof changeGroupTtl>>>> {
  return runAction(async () => {
    const actor = await requireConsoleActor("operate");
    await guardDestructive(actor); // a sign-in from the last 15 min, and the per-actor rate limit
    const result = await changeGroupTtl({ db: await consoleDb(), actor, input });
    revalidatePath("/groups", "layout");
    return result;
  });
}
