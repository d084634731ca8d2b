import type { DbOrTx } from "@/db/types";
import type { Actor } from "@/lib/auth/actor";
import { setGroupTtl } from "@/lib/dedup/window/set-group-ttl";
import { previewTtlChange, type TtlPreview } from "@/lib/dedup/window/ttl-preview";
import { ttlChangeInputSchema, ttlPreviewInputSchema, type TtlChangeInput, type TtlPreviewInput } from "@/lib/validation/console-groups";
import { authorize } from "@/lib/auth/authorize";

/** What a TTL change would do to the group's stored records, without saving it. */
export async function previewGroupTtl({ db, actor, input }: { db: DbOrTx; actor: Actor; input: TtlPreviewInput }): Promise<TtlPreview> {
  authorize(actor, "operate");
  const { consumerGroup, ttlSeconds } = ttlPreviewInputSchema.parse(input);
  return previewTtlChange(db, consumerGroup, ttlSeconds);
}

/** Saves a group's TTL and sliding setting; the window engine writes the history row and the audit row in its transaction. */
export async function changeGroupTtl({ db, actor, input }: { db: DbOrTx; actor: Actor; input: TtlChangeInput }) {
  authorize(actor, "operate");
  const { consumerGroup, ttlSeconds, slide, reason } = ttlChangeInputSchema.parse(input);
  const result = await setGroupTtl(db, { consumerGroup, ttlSeconds, slide, reason, actor });
  return {
    ttlSeconds: result.group.ttlSeconds,
    slide: result.group.slide,
    created: result.created,
    changed: result.changed,
    expiredAtOnce: result.change?.expiredAtOnce ?? 0,
    revived: result.change?.revived ?? 0,
  };
}
