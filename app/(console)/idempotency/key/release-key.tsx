"use client";
import { useMutation } from "@tanstack/react-query";
import { useRouter } from "next/navigation";
import { useState } from "react";
import { FailureMessage } from "@/components/ui/failure-message";
import { hrefWith } from "@/components/ui/pager";
import { ReasonedAction } from "@/components/ui/reasoned-action";
import { releaseKeyAction } from "@/lib/actions/idempotency";
import { useFollowFailure } from "@/lib/console/client-failure";

/** Releases attempt `attempt` only: if a retry took the key over meanwhile, the release is refused. */
export function ReleaseKey({ scope, idempotencyKey, attempt, stuck }: { scope: string; idempotencyKey: string; attempt: number; stuck: boolean }) {
  const followFailure = useFollowFailure();
  const router = useRouter();
  const [reason, setReason] = useState("");
  const release = useMutation({
    mutationFn: releaseKeyAction,
    // The list then says what was released, read from the audit row the release wrote.
    onSuccess: (result) => (result.ok ? router.push(hrefWith("/idempotency", { scope, release: result.data.auditId })) : followFailure(result)),
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
      <ReasonedAction
        reason={reason}
        onReason={setReason}
        reasonErrors={failure?.fieldErrors?.reason}
        tone="danger"
        pending={release.isPending}
        label={`Release attempt ${attempt}`}
        pendingLabel="Releasing…"
        onConfirm={() => release.mutate({ scope, key: idempotencyKey, attempt, reason })}
      />
      <FailureMessage failure={failure} />
    </section>
  );
}
