"use client";
import { useMutation } from "@tanstack/react-query";
import { useRouter } from "next/navigation";
import { useState } from "react";
import { FailureMessage } from "@/components/ui/failure-message";
import { ReasonedAction } from "@/components/ui/reasoned-action";
import { changeTtlAction, previewTtlAction } from "@/lib/actions/groups";
import { useFollowFailure } from "@/lib/console/client-failure";
import type { GroupSettingsChangeInput, GroupTtlPreviewInput } from "@/lib/validation/window";
import { formatCount, formatDuration } from "@/lib/views/format";
import { TtlFields, useTtlFields } from "../_components/ttl-fields";

/** Edit a TTL and the sliding setting: the preview of what it does to stored records comes first, and saving needs a reason. */
export function TtlEditor({ consumerGroup, currentTtlSeconds, currentSlide }: { consumerGroup: string; currentTtlSeconds: number; currentSlide: boolean }) {
  const followFailure = useFollowFailure();
  const router = useRouter();
  const fields = useTtlFields(currentTtlSeconds, currentSlide);
  const { ttlSeconds, slide } = fields;
  const [reason, setReason] = useState("");
  const preview = useMutation({ mutationFn: (input: GroupTtlPreviewInput) => previewTtlAction(input) });
  const save = useMutation({
    // Changing settings of a group that does not exist is refused: creating one is the groups page's own form.
    mutationFn: (input: GroupSettingsChangeInput) => changeTtlAction(input, "change"),
    onSuccess: (result) => {
      if (!result.ok) return followFailure(result);
      preview.reset();
      setReason("");
      router.refresh();
    },
  });
  const previewed = preview.data?.ok && preview.data.data.newTtlSeconds === ttlSeconds ? preview.data.data : null;
  const failure = (save.data && !save.data.ok ? save.data : null) ?? (preview.data && !preview.data.ok ? preview.data : null);
  return (
    <section className="panel" aria-label="Edit TTL">
      <h2>Change the TTL</h2>
      <div className="filters">
        <TtlFields label="New TTL" fields={fields} errors={failure?.fieldErrors?.ttlSeconds} />
        <button type="button" onClick={() => preview.mutate({ consumerGroup, ttlSeconds })} disabled={preview.isPending}>
          {preview.isPending ? "Measuring…" : "Preview effect"}
        </button>
      </div>
      {previewed ? (
        <div className="callout" data-testid="ttl-preview">
          <p>
            From {formatDuration(previewed.currentTtlSeconds)} to {formatDuration(previewed.newTtlSeconds)}:{" "}
            {previewed.newTtlSeconds < previewed.currentTtlSeconds
              ? `expires ${formatCount(previewed.expireAtOnce)} records now`
              : previewed.newTtlSeconds > previewed.currentTtlSeconds
                ? `extends the window of ${formatCount(previewed.liveOn)} live records and brings back ${formatCount(previewed.revived)} expired ones`
                : "no change to the TTL"}
            . Live records: {formatCount(previewed.liveNow)} now, {formatCount(previewed.liveAfter)} after.
            {slide !== currentSlide
              ? slide
                ? " Sliding on: from now on each duplicate restarts its record's window."
                : " Sliding off: a duplicate no longer restarts the window; windows run from the last restart."
              : null}
          </p>
          <ReasonedAction
            reason={reason}
            onReason={setReason}
            reasonErrors={failure?.fieldErrors?.reason}
            tone="primary"
            blocked={previewed.newTtlSeconds === previewed.currentTtlSeconds && slide === currentSlide}
            pending={save.isPending}
            label={`Save TTL of ${formatDuration(ttlSeconds)}${slide ? ", sliding" : ""}`}
            pendingLabel="Saving…"
            onConfirm={() => save.mutate({ consumerGroup, ttlSeconds, slide, reason })}
          />
        </div>
      ) : (
        <p className="muted small">Preview first: saving is offered for the value you previewed.</p>
      )}
      {save.data?.ok ? (
        <p className="small" role="status" data-testid="ttl-saved">
          Saved. {formatCount(save.data.data.expiredAtOnce)} records expired at once, {formatCount(save.data.data.revived)} came back inside the window.
        </p>
      ) : null}
      <FailureMessage failure={failure} />
    </section>
  );
}
