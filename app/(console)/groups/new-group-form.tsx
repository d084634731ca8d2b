"use client";
import { useMutation } from "@tanstack/react-query";
import { useRouter } from "next/navigation";
import { useState } from "react";
import { Field } from "@/components/ui/field";
import { FailureMessage } from "@/components/ui/failure-message";
import { ReasonedAction } from "@/components/ui/reasoned-action";
import { changeTtlAction } from "@/lib/actions/groups";
import { useFollowFailure } from "@/lib/console/client-failure";
import type { GroupSettingsChangeInput } from "@/lib/validation/window";
import { formatDuration } from "@/lib/views/format";
import { TtlFields, useTtlFields } from "./_components/ttl-fields";

/**
 * Creating a consumer group is its own action: the id, window and reason are reviewed before
 * anything is saved, and an id that already names a group is refused rather than changed.
 */
export function NewGroupForm({ defaultTtlSeconds }: { defaultTtlSeconds: number }) {
  const followFailure = useFollowFailure();
  const router = useRouter();
  const [open, setOpen] = useState(false);
  const [id, setId] = useState("");
  const [reason, setReason] = useState("");
  const [reviewed, setReviewed] = useState<{ id: string; ttlSeconds: number; slide: boolean } | null>(null);
  const fields = useTtlFields(defaultTtlSeconds, false);
  const create = useMutation({
    mutationFn: (input: GroupSettingsChangeInput) => changeTtlAction(input, "create"),
    onSuccess: (result, input) => (result.ok ? router.push(`/groups/${encodeURIComponent(input.consumerGroup)}`) : followFailure(result)),
  });
  if (!open) {
    return (
      <p>
        <button type="button" onClick={() => setOpen(true)}>
          New consumer group…
        </button>
      </p>
    );
  }
  const failure = create.data && !create.data.ok ? create.data : null;
  const current = { id: id.trim(), ttlSeconds: fields.ttlSeconds, slide: fields.slide };
  const stillReviewed = reviewed && reviewed.id === current.id && reviewed.ttlSeconds === current.ttlSeconds && reviewed.slide === current.slide;
  return (
    <section className="panel" aria-label="New consumer group">
      <h2>New consumer group</h2>
      <div className="filters">
        <Field label="Group id" errors={failure?.fieldErrors?.consumerGroup}>
          <input name="consumerGroup" value={id} onChange={(e) => setId(e.target.value)} maxLength={128} required />
        </Field>
        <TtlFields label="TTL" fields={fields} errors={failure?.fieldErrors?.ttlSeconds} />
        <button type="button" onClick={() => setReviewed(current)} disabled={current.id === ""}>
          Review
        </button>
      </div>
      {stillReviewed ? (
        <div className="callout" data-testid="new-group-preview">
          <p>
            Creates consumer group <code>{reviewed.id}</code> with a window of {formatDuration(reviewed.ttlSeconds)}
            {reviewed.slide ? ", sliding" : ""}. Claims in it are then deduplicated for that long; nothing else changes.
          </p>
          <ReasonedAction
            reason={reason}
            onReason={setReason}
            reasonErrors={failure?.fieldErrors?.reason}
            tone="primary"
            pending={create.isPending}
            label={`Create ${reviewed.id}`}
            pendingLabel="Creating…"
            onConfirm={() => create.mutate({ consumerGroup: reviewed.id, ttlSeconds: reviewed.ttlSeconds, slide: reviewed.slide, reason })}
          />
        </div>
      ) : (
        <p className="muted small">Review first: creating is offered for the values you reviewed.</p>
      )}
      <FailureMessage failure={failure} />
      <button type="button" onClick={() => setOpen(false)}>
        Cancel
      </button>
    </section>
  );
}
