import { auditBy } from "@/db/queries/audit";
import { setPayloadRetention, setResponseRetention } from "@/db/queries/retention-settings";
import type { DbOrTx } from "@/db/types";
import { asStoreError } from "@/db/unavailable";
import type { Actor } from "@/lib/auth/actor";
import { authorize } from "@/lib/auth/authorize";
import { NotFoundError } from "@/lib/errors";
import { retentionChangeSchema, type RetentionChangeInput } from "@/lib/validation/erase";

export interface RetentionChange {
  kind: "service" | "scope";
  subject: string;
  before: number | null;
  maxAgeSeconds: number | null;
}

/**
 * Sets (or removes) a service's payload-history age limit or a scope's stored-response age limit,
 * audited. The retention job applies it on its next pass; nothing is removed here.
 */
export async function setRetention({ db, actor, input }: { db: DbOrTx; actor: Actor; input: RetentionChangeInput }): Promise<RetentionChange> {
  authorize(actor, "operate");
  const { kind, subject, maxAgeSeconds, reason } = retentionChangeSchema.parse(input);
  authorize(actor, "operate", { kind: kind === "service" ? "services" : "idempotencyScopes", id: subject });
  try {
    return await db.transaction(async (tx) => {
      const changed = kind === "service" ? await setPayloadRetention(tx, subject, maxAgeSeconds) : await setResponseRetention(tx, subject, maxAgeSeconds);
      if (!changed) throw new NotFoundError(`service ${subject} does not exist`, "subject");
      await auditBy(tx, actor, {
        action: kind === "service" ? "service.payload_retention" : "idempotency_scope.response_retention",
        target: `${kind === "service" ? "service" : "idempotency_scope"}:${subject}`,
        reason,
        details: { before: changed.before, maxAgeSeconds },
      });
      return { kind, subject, before: changed.before, maxAgeSeconds };
    });
  } catch (err) {
    throw asStoreError(err);
  }
}
