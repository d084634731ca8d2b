import type { DbOrTx } from "@/db/types";
import type { Actor } from "@/lib/auth/actor";
import { DEMO_ADMIN_EMAIL } from "@/lib/auth/demo-constants";
import { runReset } from "@/lib/reset/run-reset";
import { startReset } from "@/lib/reset/start-reset";

const DEMO_OPERATOR: Actor = { id: DEMO_ADMIN_EMAIL, role: "admin" };

/**
 * One bulk reset, started and run to the end through the reset verbs (which have no HTTP door),
 * so "Recent resets" on /reset shows a completed one: ten email-sender claims sent again.
 */
export async function seedCompletedReset(db: DbOrTx): Promise<number> {
  const reset = await startReset({
    db,
    actor: DEMO_OPERATOR,
    input: { selection: { kind: "window", subject: "email-sender", mode: "filter", prefix: "O-0001" }, reason: "demo: a broken email template, sent again" },
  });
  await runReset(db, reset.id);
  return reset.id;
}
