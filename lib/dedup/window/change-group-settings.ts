import type { DbOrTx } from "@/db/types";
import type { Actor } from "@/lib/auth/actor";
import { authorize } from "@/lib/auth/authorize";
import { guardDestructive } from "@/lib/auth/recent-sign-in";
import { groupSettingsChangeSchema, groupTtlPreviewSchema, type GroupSettingsChangeInput, type GroupTtlPreviewInput } from "@/lib/validation/window";
import { setGroupTtl, type SetGroupTtlResult } from "./set-group-ttl";
import { previewTtlChange, type TtlPreview } from "./ttl-preview";

/**
 * The one verb behind every door that changes a consumer group's window (the API's PUT, the
 * console's TTL editor): one schema, one `authorize` on the group, the destructive guard (a
 * recent sign-in, the rate limit: checked before the input, as in every destructive verb), then the settings, history and audit rows in one transaction.
 */
export async function changeGroupSettings({ db, actor, input }: { db: DbOrTx; actor: Actor; input: GroupSettingsChangeInput }): Promise<SetGroupTtlResult> {
  authorize(actor, "operate");
  await guardDestructive(actor, db);
  const parsed = groupSettingsChangeSchema.parse(input);
  authorize(actor, "operate", { kind: "consumerGroups", id: parsed.consumerGroup });
  return setGroupTtl(db, { ...parsed, actor });
}

/** What a TTL change would do to the group's stored records, without saving it: the same verb for every door. */
export async function previewGroupSettings({ db, actor, input }: { db: DbOrTx; actor: Actor; input: GroupTtlPreviewInput }): Promise<TtlPreview> {
  authorize(actor, "read");
  const { consumerGroup, ttlSeconds } = groupTtlPreviewSchema.parse(input);
  authorize(actor, "read", { kind: "consumerGroups", id: consumerGroup });
  return previewTtlChange(db, consumerGroup, ttlSeconds);
}
