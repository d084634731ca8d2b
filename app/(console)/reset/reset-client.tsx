"use client";
import { useMutation } from "@tanstack/react-query";
import { useRouter } from "next/navigation";
import { useState, type FormEvent } from "react";
import { Field } from "@/components/ui/field";
import { useTimeZone } from "@/components/ui/time-zone";
import { FailureMessage } from "@/components/ui/failure-message";
import { ReasonedAction } from "@/components/ui/reasoned-action";
import { previewResetAction, startResetAction } from "@/lib/actions/reset";
import { RESET_CSV_MAX_ROWS } from "@/lib/reset/constants";
import { formatCount } from "@/lib/views/format";
import { useFollowFailure } from "@/lib/console/client-failure";
import { inputToParam } from "@/lib/views/time-zone";
import { PreviewPanel } from "./_components/preview-panel";
import { SelectionFields, type SelectionState } from "./_components/selection-fields";

export type ResetPrefill = Omit<SelectionState, "messageIds"> & { messageIds?: string };

/** Preview -> reason (and typed confirmation above the threshold) -> start; then the reset's own page shows progress. */
export function ResetClient({ prefill, services, groups }: { prefill: ResetPrefill; services: string[]; groups: string[] }) {
  const followFailure = useFollowFailure();
  const zone = useTimeZone();
  const router = useRouter();
  const [selection, setSelection] = useState<SelectionState>({ ...prefill, messageIds: prefill.messageIds ?? "" });
  const [reason, setReason] = useState("");
  const [confirmation, setConfirmation] = useState("");
  const preview = useMutation({ mutationFn: previewResetAction });
  const start = useMutation({
    mutationFn: startResetAction,
    onSuccess: (result) => {
      if (result.ok) router.push(`/reset/${result.data.id}`);
      else followFailure(result);
    },
  });
  const changeSelection = (next: SelectionState) => {
    setSelection(next);
    preview.reset();
    setConfirmation("");
  };
  const previewed = preview.data?.ok ? preview.data.data : null;
  const failure = (start.data && !start.data.ok ? start.data : null) ?? (preview.data && !preview.data.ok ? preview.data : null);
  const confirmed = !previewed?.confirmWord || confirmation.trim() === previewed.confirmWord;
  const canStart = previewed !== null && previewed.count > 0 && reason.trim().length > 0 && confirmed && !start.isPending;
  // The time inputs show wall times in the viewer's zone; the server is sent the instants they name.
  const sent = { ...selection, from: inputToParam(selection.from, zone), to: inputToParam(selection.to, zone) };
  const onPreview = (event: FormEvent) => {
    event.preventDefault();
    start.reset();
    preview.mutate(sent, { onSuccess: (result) => (result.ok ? undefined : followFailure(result)) });
  };
  return (
    <>
      <form className="panel" onSubmit={onPreview} aria-label="Reset">
        <h2>New reset</h2>
        <SelectionFields value={selection} onChange={changeSelection} errors={failure?.fieldErrors ?? {}} services={services} groups={groups} />
        <div className="actions" style={{ marginTop: "0.75rem" }}>
          <button type="submit" disabled={preview.isPending}>
            {preview.isPending ? "Counting…" : "Preview (dry run)"}
          </button>
        </div>
        {previewed ? <PreviewPanel preview={previewed} kind={selection.kind} /> : null}
        {previewed && previewed.count > 0 ? (
          <ReasonedAction
            reason={reason}
            onReason={setReason}
            reasonErrors={failure?.fieldErrors?.reason}
            required
            tone="danger"
            blocked={!canStart}
            pending={start.isPending}
            label={`Reset ${formatCount(previewed.count)} row${previewed.count === 1 ? "" : "s"}`}
            pendingLabel="Starting…"
            onConfirm={() => start.mutate({ selection: sent, reason, confirmation: confirmation || undefined })}
          >
            {previewed.confirmWord ? (
              <Field label={`Type "${previewed.confirmWord}" to confirm`} errors={failure?.fieldErrors?.confirmation}>
                <input name="confirmation" value={confirmation} onChange={(e) => setConfirmation(e.target.value)} autoComplete="off" />
              </Field>
            ) : null}
          </ReasonedAction>
        ) : null}
        <FailureMessage failure={failure} />
      </form>
      {previewed && previewed.count > 0 ? <DownloadSelection selection={sent} count={previewed.count} /> : null}
    </>
  );
}

/** The previewed selection, whole, as CSV: a form of its own (a list of ids does not fit in a URL). */
function DownloadSelection({ selection, count }: { selection: SelectionState; count: number }) {
  const { messageIds, ...fields } = selection;
  return (
    <form method="post" action="/reset/preview.csv" className="panel" aria-label="Download the selection">
      {Object.entries(fields).map(([name, value]) => (
        <input key={name} type="hidden" name={name} value={value} />
      ))}
      <textarea name="messageIds" value={messageIds} readOnly hidden />
      <button type="submit">Download all {formatCount(count)} as CSV</button>{" "}
      <span className="small muted">message id, last change or claim, version; up to {formatCount(RESET_CSV_MAX_ROWS)} rows</span>
    </form>
  );
}
