import { groupExists } from "@/db/queries/console-groups";
import type { DbOrTx } from "@/db/types";
import type { Actor } from "@/lib/auth/actor";
import { requireRecentSignIn } from "@/lib/auth/recent-sign-in";
import { changeGroupSettings } from "@/lib/dedup/window/change-group-settings";
import type { SetGroupTtlResult } from "@/lib/dedup/window/set-group-ttl";
import { ConflictError, NotFoundError } from "@/lib/errors";
import { consumerGroupIdSchema, type GroupSettingsChangeInput } from "@/lib/validation/window";

/** What the console means to do: change a group that exists (the TTL editor) or create one (the "New consumer group" form). */
export type GroupIntent = "change" | "create";

/**
 * The settings verb, held to the console's intent: the API's PUT may create a group as it sets it,
 * but a mistyped id in the console must not. The check and the verb share one transaction, and a
 * create that finds the group made meanwhile rolls back rather than changing someone else's settings.
 */
export async function saveGroupSettings({
  db,
  actor,
  input,
  intent,
}: {
  db: DbOrTx;
  actor: Actor;
  input: GroupSettingsChangeInput;
  intent: GroupIntent;
}): Promise<SetGroupTtlResult> {
  // A stale sign-in hears so before anything about the group, as from the verb alone.
  requireRecentSignIn(actor);
  const id = consumerGroupIdSchema.parse(input?.consumerGroup);
  return db.transaction(async (tx) => {
    const exists = await groupExists(tx, id);
    if (intent === "change" && !exists) {
      throw new NotFoundError(`consumer group ${id} does not exist: nothing was changed. Create it from the consumer groups page.`, "consumerGroup");
    }
    if (intent === "create" && exists) throw new ConflictError(`consumer group ${id} already exists: change its TTL on its own page.`);
    const result = await changeGroupSettings({ db: tx, actor, input });
    if (intent === "create" && !result.created) throw new ConflictError(`consumer group ${id} was created meanwhile: nothing was changed.`);
    return result;
  });
}
