import { groupExists } from "@/db/queries/console-groups";
import type { DbOrTx } from "@/db/types";
import type { Actor } from "@/lib/auth/actor";
import { authorize } from "@/lib/auth/authorize";
import { guardDestructive } from "@/lib/auth/recent-sign-in";
import { ConflictError, NotFoundError } from "@/lib/errors";
import { groupSettingsChangeSchema, groupTtlPreviewSchema, type GroupSettingsChangeInput, type GroupTtlPreviewInput } from "@/lib/validation/window";
import { setGroupTtl, type SetGroupTtlResult } from "./set-group-ttl";
import { previewTtlChange, type TtlPreview } from "./ttl-preview";

/**
 * What the caller means: `set` the group's window whether or not it exists (the API's PUT, the
 * CLI), `change` a group that exists (the console's TTL editor: a mistyped id must not create
 * one), or `create` a new one (the console's form).
 */
export type GroupIntent = "set" | "change" | "create";

/**
 * The one verb behind every door that changes a consumer group's window (the API's PUT, the
 * console's TTL editor and new-group form, the CLI): one schema, one `authorize` on the group, the
 * destructive guard (a recent sign-in, the rate limit: checked before the input, as in every
 * destructive verb), then the settings, history and audit rows in one transaction.
 */
export async function changeGroupSettings({
  db,
  actor,
  input,
  intent = "set",
}: {
  db: DbOrTx;
  actor: Actor;
  input: GroupSettingsChangeInput;
  intent?: GroupIntent;
}): Promise<SetGroupTtlResult> {
  authorize(actor, "operate");
  await guardDestructive(actor, db);
  const parsed = groupSettingsChangeSchema.parse(input);
  const id = parsed.consumerGroup;
  authorize(actor, "operate", { kind: "consumerGroups", id });
  if (intent === "set") return setGroupTtl(db, { ...parsed, actor });
  // The existence check and the change share one transaction; a create that finds the group made
  // meanwhile rolls back rather than changing someone else's settings.
  return db.transaction(async (tx) => {
    const exists = await groupExists(tx, id);
    if (intent === "change" && !exists) {
      throw new NotFoundError(`consumer group ${id} does not exist: nothing was changed. Create it from the consumer groups page.`, "consumerGroup");
    }
    if (intent === "create" && exists) throw new ConflictError(`consumer group ${id} already exists: change its TTL on its own page.`);
    const result = await setGroupTtl(tx, { ...parsed, actor });
    if (intent === "create" && !result.created) throw new ConflictError(`consumer group ${id} was created meanwhile: nothing was changed.`);
    return result;
  });
}

/** What a TTL change would do to the group's stored records, without saving it: the same verb for every door. */
export async function previewGroupSettings({ db, actor, input }: { db: DbOrTx; actor: Actor; input: GroupTtlPreviewInput }): Promise<TtlPreview> {
  authorize(actor, "read");
  const { consumerGroup, ttlSeconds } = groupTtlPreviewSchema.parse(input);
  authorize(actor, "read", { kind: "consumerGroups", id: consumerGroup });
  return previewTtlChange(db, consumerGroup, ttlSeconds);
}
