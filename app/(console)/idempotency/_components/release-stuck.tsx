"use client";
import { useMutation } from "@tanstack/react-query";
import Link from "next/link";
import { useRouter } from "next/navigation";
import { useState } from "react";
import { Field } from "@/components/ui/field";
import { FailureMessage } from "@/components/ui/failure-message";
import { ReasonedAction } from "@/components/ui/reasoned-action";
import { RelativeTime } from "@/components/ui/relative-time";
import { VisibleText } from "@/components/ui/visible-text";
import { previewStuckAction, releaseStuckAction } from "@/lib/actions/idempotency";
import { useFollowFailure } from "@/lib/console/client-failure";
import { formatCount } from "@/lib/views/format";

/** Preview (how many stuck, the oldest) -> reason (and the scope typed above the threshold) -> release; no undo. */
export function ReleaseStuck({ scope }: { scope: string }) {
  const router = useRouter();
  const followFailure = useFollowFailure();
  const [reason, setReason] = useState("");
  const [confirmation, setConfirmation] = useState("");
  const preview = useMutation({ mutationFn: previewStuckAction, onSuccess: (result) => (result.ok ? undefined : followFailure(result)) });
  const release = useMutation({
    mutationFn: releaseStuckAction,
    onSuccess: (result) => {
      if (!result.ok) return followFailure(result);
      preview.reset();
      setReason("");
      setConfirmation("");
      router.refresh();
    },
  });
  const previewed = preview.data?.ok ? preview.data.data : null;
  const failure = (release.data && !release.data.ok ? release.data : null) ?? (preview.data && !preview.data.ok ? preview.data : null);
  const done = release.data?.ok ? release.data.data : null;
  const confirmed = !previewed?.confirmWord || confirmation.trim() === previewed.confirmWord;
  return (
    <section className="panel" aria-label="Release stuck keys">
      <h2>Release stuck keys</h2>
      <p className="small">
        A key is stuck when it is in progress and its lock has run out: its caller died. Releasing lets the next request with the key start the work again,
        as its next attempt. There is no undo.
      </p>
      {done ? (
        <p role="status" data-testid="stuck-released">
          Released {formatCount(done.released)} stuck key{done.released === 1 ? "" : "s"} in scope <code>{scope}</code>.{" "}
          {done.auditId ? <Link href={`/audit?action=idempotency_scope.release_stuck&target=idempotency_scope:${encodeURIComponent(scope)}`}>Audit log</Link> : null}
        </p>
      ) : null}
      <button type="button" onClick={() => (release.reset(), preview.mutate(scope))} disabled={preview.isPending}>
        {preview.isPending ? "Counting…" : "Preview stuck keys"}
      </button>
      {previewed ? (
        <div data-testid="stuck-preview">
          <p>
            <strong>{formatCount(previewed.count)}</strong> stuck key{previewed.count === 1 ? "" : "s"} in <code>{scope}</code>
            {previewed.count > previewed.sample.length ? `; the ${previewed.sample.length} whose lock ran out first:` : previewed.count > 0 ? ":" : "."}
          </p>
          {previewed.sample.length > 0 ? (
            <div className="table-wrap">
              <table>
                <thead>
                  <tr>
                    <th>Key</th>
                    <th className="num">Attempt</th>
                    <th>Lock ran out</th>
                  </tr>
                </thead>
                <tbody>
                  {previewed.sample.map((k) => (
                    <tr key={k.key}>
                      <td className="break">
                        <VisibleText text={k.key} />
                      </td>
                      <td className="num">{k.attempt}</td>
                      <td className="small">
                        <RelativeTime value={k.lockedUntil} />
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          ) : null}
          {previewed.count > 0 ? (
            <ReasonedAction
              reason={reason}
              onReason={setReason}
              reasonErrors={failure?.fieldErrors?.reason}
              inputName="stuck-reason"
              required
              tone="danger"
              blocked={!confirmed}
              pending={release.isPending}
              label={`Release ${formatCount(previewed.count)} stuck key${previewed.count === 1 ? "" : "s"}`}
              pendingLabel="Releasing…"
              onConfirm={() => release.mutate({ scope, reason, confirmation: confirmation || undefined })}
            >
              {previewed.confirmWord ? (
                <Field label={`Type "${previewed.confirmWord}" to confirm`} errors={failure?.fieldErrors?.confirmation}>
                  <input name="stuck-confirmation" value={confirmation} onChange={(e) => setConfirmation(e.target.value)} autoComplete="off" />
                </Field>
              ) : null}
            </ReasonedAction>
          ) : null}
        </div>
      ) : null}
      <FailureMessage failure={failure} />
    </section>
  );
}
