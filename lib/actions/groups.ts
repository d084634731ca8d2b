"use server";
/*
 * Every export of this file is a public endpoint that anyone can call with any
 * arguments: each one checks the role itself and the verb parses the input.
 */
import { revalidatePath } from "next/cache";
import { requireConsoleActor } from "@/lib/auth/console-actor";
import { ValidationError } from "@/lib/errors";
import { runAction, type ActionResult } from "@/lib/console/action-result";
import { consoleDb } from "@/lib/console/store";
import { changeGroupSettings, previewGroupSettings, type GroupIntent } from "@/lib/dedup/window/change-group-settings";
import type { TtlPreview } from "@/lib/dedup/window/ttl-preview";
import type { GroupSettingsChangeInput, GroupTtlPreviewInput } from "@/lib/validation/window";

export interface GroupSettingsSaved {
  ttlSeconds: number;
  slide: boolean;
  created: boolean;
  changed: boolean;
  expiredAtOnce: number;
  revived: number;
}

export async function previewTtlAction(input: GroupTtlPreviewInput): Promise<ActionResult<TtlPreview>> {
  return runAction(async () => {
    const actor = await requireConsoleActor("operate");
    return previewGroupSettings({ db: await consoleDb(), actor, input });
  });
}

/** `intent` "change" refuses an unknown group (not found); "create" refuses one that exists. */
export async function changeTtlAction(input: GroupSettingsChangeInput, intent: Exclude<GroupIntent, "set"> = "change"): Promise<ActionResult<GroupSettingsSaved>> {
  return runAction(async () => {
    const actor = await requireConsoleActor("operate");
    if (intent !== "change" && intent !== "create") throw new ValidationError("intent must be change or create", "intent");
    const result = await changeGroupSettings({ db: await consoleDb(), actor, input, intent });
    revalidatePath("/groups", "layout");
    return {
      ttlSeconds: result.group.ttlSeconds,
      slide: result.group.slide,
      created: result.created,
      changed: result.changed,
      expiredAtOnce: result.change?.expiredAtOnce ?? 0,
      revived: result.change?.revived ?? 0,
    };
  });
}
