"use client";
import { useMutation } from "@tanstack/react-query";
import { useRouter } from "next/navigation";
import { useState } from "react";
import { Field } from "@/components/ui/field";
import { FailureMessage } from "@/components/ui/failure-message";
import { releaseKeyAction } from "@/lib/actions/idempotency";
import { useFollowFailure } from "@/lib/console/client-failure";

/** Releases attempt `attempt` only: if a retry took the key over meanwhile, the release is refused. */
export function ReleaseKey({ scope, idempotencyKey, attempt, stuck }: { scope: string; idempotencyKey: string; attempt: number; stuck: boolean }) {
  const followFailure = useFollowFailure();
  const router = useRouter();
  const [reason, setReason] = useState("");
  const release = useMutation({
    mutationFn: releaseKeyAction,
    onSuccess: (result) => (result.ok ? router.push(`/idempotency?scope=${encodeURIComponent(scope)}`) : followFailure(result)),
  });
  const failure = release.data && !release.data.ok ? release.data : null;
  return (
    <section className="panel">
      <h2>Release this key</h2>
      <p className="small">
        {stuck
          ? "Its lock has run out: the caller probably crashed. Releasing lets the next request with this key start the work again."
          : "Its caller still holds the lock. Release only if you know the work is not running."}
      </p>
      <div className="filters">
        <Field label="Reason (for the audit log)" errors={failure?.fieldErrors?.reason}>
          <input name="reason" value={reason} onChange={(e) => setReason(e.target.value)} size={48} />
        </Field>
        <button
          type="button"
          className="danger"
          disabled={reason.trim() === "" || release.isPending}
          onClick={() => release.mutate({ scope, key: idempotencyKey, attempt, reason })}
        >
          {release.isPending ? "Releasing…" : `Release attempt ${attempt}`}
        </button>
      </div>
      <FailureMessage failure={failure} />
    </section>
  );
}
