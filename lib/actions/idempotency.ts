"use server";
/*
 * Every export of this file is a public endpoint that anyone can call with any
 * arguments: each one checks the role itself and the verb parses the input.
 */
import { revalidatePath } from "next/cache";
import { requireConsoleActor } from "@/lib/auth/console-actor";
import { runAction, type ActionResult } from "@/lib/console/action-result";
import { consoleDb, consoleNotifyDb } from "@/lib/console/store";
import { releaseIdempotencyKey } from "@/lib/dedup/idempotency/operator-release";
import { previewStuckKeys, releaseStuck, type StuckPreview } from "@/lib/dedup/idempotency/release-stuck";
import type { ReleaseKeyInput, ReleaseStuckInput } from "@/lib/validation/console-idempotency";

/** Answers with the release's audit row id: the list page builds its notice from that row. */
export async function releaseKeyAction(input: ReleaseKeyInput): Promise<ActionResult<{ auditId: number }>> {
  return runAction(async () => {
    const actor = await requireConsoleActor("release");
    const db = await consoleDb();
    const { auditId } = await releaseIdempotencyKey({ db, actor, input });
    revalidatePath("/idempotency", "layout");
    return { auditId };
  });
}

export async function previewStuckAction(scope: string): Promise<ActionResult<StuckPreview>> {
  return runAction(async () => previewStuckKeys({ db: await consoleDb(), actor: await requireConsoleActor("operate"), scope: String(scope) }));
}

/** Releases every stuck key of a scope; answers how many, and the audit row's id. */
export async function releaseStuckAction(input: ReleaseStuckInput): Promise<ActionResult<{ released: number; auditId: number | null }>> {
  return runAction(async () => {
    const actor = await requireConsoleActor("operate");
    const { released, auditId } = await releaseStuck({ db: await consoleDb(), notifyDb: await consoleNotifyDb(), actor, input });
    revalidatePath("/idempotency", "layout");
    return { released, auditId };
  });
}
