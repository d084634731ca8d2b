"use client";
import { Instant } from "@/components/ui/time-zone";
import { useMutation, useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { Badge } from "@/components/ui/badge";
import { FailureMessage } from "@/components/ui/failure-message";
import { ReasonedAction } from "@/components/ui/reasoned-action";
import { undoResetAction } from "@/lib/actions/reset";
import { useFollowFailure } from "@/lib/console/client-failure";
import { formatCount } from "@/lib/views/format";
import type { ResetView } from "@/lib/reset/views";
import { SelectionText } from "../_components/reset-list";

const ACTIVE = new Set(["running", "undoing"]);

async function fetchProgress(id: number): Promise<ResetView> {
  const response = await fetch(`/reset/${id}/progress`, { cache: "no-store" });
  if (!response.ok) throw new Error((await response.json().catch(() => null))?.message ?? `progress: ${response.status}`);
  return response.json();
}

/** Polls the reset while it runs (every second), then offers undo within the retention period. */
export function ResetProgressClient({ initial, canUndo }: { initial: ResetView; canUndo: boolean }) {
  const followFailure = useFollowFailure();
  const { data: reset = initial, error, refetch } = useQuery({
    queryKey: ["reset", initial.id],
    queryFn: () => fetchProgress(initial.id),
    initialData: initial,
    refetchInterval: (query) => (ACTIVE.has(query.state.data?.status ?? "") ? 1_000 : false),
  });
  const [reason, setReason] = useState("");
  const undo = useMutation({
    mutationFn: undoResetAction,
    onSuccess: (result) => (result.ok ? void refetch() : followFailure(result)),
  });
  const undoing = reset.status === "undoing" || reset.status === "undone";
  const done = undoing ? reset.restored + reset.skipped : reset.affected;
  const total = undoing ? reset.affected : reset.planned;
  const percent = total === 0 ? 100 : Math.min(100, Math.round((100 * done) / total));
  const failure = undo.data && !undo.data.ok ? undo.data : null;
  return (
    <>
      <section className="panel" data-testid="reset-progress" aria-live="polite">
        <h2>
          <Badge tone={reset.status} />{" "}
          {undoing
            ? `${formatCount(reset.restored)} restored, ${formatCount(reset.skipped)} skipped of ${formatCount(reset.affected)}`
            : `${formatCount(reset.affected)} of ${formatCount(reset.planned)} rows reset`}
        </h2>
        <div
          className="progress"
          role="progressbar"
          aria-label={undoing ? `Undo of reset #${reset.id}` : `Reset #${reset.id}`}
          aria-valuetext={`${percent} %`}
          aria-valuenow={percent}
          aria-valuemin={0}
          aria-valuemax={100}
        >
          <div style={{ width: `${percent}%` }} />
        </div>
        {reset.skipped > 0 ? (
          <p className="small">
            {formatCount(reset.skipped)} {reset.kind === "last_seen" ? "keys" : "records"} were not restored: they have state again (written
            after the reset), which was kept.
          </p>
        ) : null}
        {error ? <p className="form-error">Progress could not be read: {error.message}. Retrying.</p> : null}
        <dl className="small facts">
          <dt>Selection</dt>
          <dd><SelectionText reset={reset} />; only rows changed before <Instant value={reset.cutoff} /></dd>
          <dt>Started</dt>
          <dd>
            <Instant value={reset.createdAt} /> by {reset.actor}: “{reset.reason}”
          </dd>
          {reset.undoActor ? (
            <>
              <dt>Undo</dt>
              <dd>
                by {reset.undoActor}: “{reset.undoReason}” {reset.undoneAt ? (
                  <>
                    finished <Instant value={reset.undoneAt} />
                  </>
                ) : null}
              </dd>
            </>
          ) : null}
          {reset.undoable ? (
            <>
              <dt>Undo possible until</dt>
              <dd><Instant value={reset.expiresAt} /></dd>
            </>
          ) : null}
        </dl>
      </section>
      {reset.undoable && canUndo ? (
        <section className="panel">
          <h2>Undo this reset</h2>
          <p className="small muted">Puts the removed rows back. Keys that have new state since the reset keep it and are counted as skipped.</p>
          <ReasonedAction
            reason={reason}
            onReason={setReason}
            reasonErrors={failure?.fieldErrors?.reason}
            inputName="undoReason"
            tone="primary"
            pending={undo.isPending}
            label="Undo reset"
            pendingLabel="Undoing…"
            onConfirm={() => undo.mutate({ batchId: reset.id, reason })}
          />
          <FailureMessage failure={failure} />
        </section>
      ) : null}
    </>
  );
}
