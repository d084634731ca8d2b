"use client";
import { useMutation } from "@tanstack/react-query";
import { useRouter } from "next/navigation";
import { useState } from "react";
import { Field } from "@/components/ui/field";
import { FailureMessage } from "@/components/ui/failure-message";
import { ReasonedAction } from "@/components/ui/reasoned-action";
import { changeTtlAction, previewTtlAction } from "@/lib/actions/groups";
import { useFollowFailure } from "@/lib/console/client-failure";
import { formatCount, formatDuration } from "@/lib/console/format";

const UNITS = { seconds: 1, minutes: 60, hours: 3_600, days: 86_400 } as const;
type Unit = keyof typeof UNITS;

function initialUnit(seconds: number): Unit {
  return seconds % 86_400 === 0 ? "days" : seconds % 3_600 === 0 ? "hours" : seconds % 60 === 0 ? "minutes" : "seconds";
}

/** Edit a TTL: the preview of what it does to stored records comes first, and saving needs a reason. */
export function TtlEditor({ consumerGroup, currentTtlSeconds }: { consumerGroup: string; currentTtlSeconds: number }) {
  const followFailure = useFollowFailure();
  const router = useRouter();
  const [unit, setUnit] = useState<Unit>(initialUnit(currentTtlSeconds));
  const [amount, setAmount] = useState(String(currentTtlSeconds / UNITS[initialUnit(currentTtlSeconds)]));
  const [reason, setReason] = useState("");
  const ttlSeconds = Math.round(Number(amount) * UNITS[unit]);
  const preview = useMutation({ mutationFn: previewTtlAction });
  const save = useMutation({
    mutationFn: changeTtlAction,
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
        <Field label="New TTL" errors={failure?.fieldErrors?.ttlSeconds}>
          <span className="actions">
            <input name="ttl" type="number" min={1} value={amount} onChange={(e) => setAmount(e.target.value)} style={{ width: "8rem" }} />
            <select name="unit" value={unit} onChange={(e) => setUnit(e.target.value as Unit)} aria-label="Unit">
              {Object.keys(UNITS).map((u) => (
                <option key={u}>{u}</option>
              ))}
            </select>
          </span>
        </Field>
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
                : "no change"}
            . Live records: {formatCount(previewed.liveNow)} now, {formatCount(previewed.liveAfter)} after.
          </p>
          <ReasonedAction
            reason={reason}
            onReason={setReason}
            reasonErrors={failure?.fieldErrors?.reason}
            tone="primary"
            blocked={previewed.newTtlSeconds === previewed.currentTtlSeconds}
            pending={save.isPending}
            label={`Save TTL of ${formatDuration(ttlSeconds)}`}
            pendingLabel="Saving…"
            onConfirm={() => save.mutate({ consumerGroup, ttlSeconds, reason })}
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
