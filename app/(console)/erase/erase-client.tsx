"use client";
import { useMutation } from "@tanstack/react-query";
import { useState, type FormEvent } from "react";
import { Field } from "@/components/ui/field";
import { FailureMessage } from "@/components/ui/failure-message";
import { ReasonedAction } from "@/components/ui/reasoned-action";
import { eraseAction, previewEraseAction } from "@/lib/actions/erase";
import { useFollowFailure } from "@/lib/console/client-failure";
import { formatCount } from "@/lib/views/format";

type Kind = "service" | "group" | "scope";
const KIND_LABEL: Record<Kind, string> = { service: "Service (last-seen state)", group: "Consumer group (window claims)", scope: "Idempotency scope (keys, responses)" };

/** Preview (rows per table) -> reason and the typed key or subject -> erase; the result names what went. */
export function EraseClient() {
  const followFailure = useFollowFailure();
  const [selection, setSelection] = useState({ kind: "service" as Kind, subject: "", key: "", every: false });
  const [reason, setReason] = useState("");
  const [confirmation, setConfirmation] = useState("");
  const preview = useMutation({ mutationFn: previewEraseAction });
  const erase = useMutation({ mutationFn: eraseAction, onSuccess: (result) => (result.ok ? undefined : followFailure(result)) });
  const input = { kind: selection.kind, subject: selection.subject.trim(), key: selection.every ? undefined : selection.key };
  const change = (next: Partial<typeof selection>) => {
    setSelection({ ...selection, ...next });
    preview.reset();
    erase.reset();
    setConfirmation("");
  };
  const previewed = preview.data?.ok ? preview.data.data : null;
  const done = erase.data?.ok ? erase.data.data : null;
  const failure = (erase.data && !erase.data.ok ? erase.data : null) ?? (preview.data && !preview.data.ok ? preview.data : null);
  const onPreview = (event: FormEvent) => {
    event.preventDefault();
    erase.reset();
    preview.mutate(input, { onSuccess: (result) => (result.ok ? undefined : followFailure(result)) });
  };
  const canErase = previewed !== null && reason.trim().length > 0 && confirmation.trim() === previewed.confirmWord && !erase.isPending;
  return (
    <form className="panel" onSubmit={onPreview} aria-label="Erase">
      <Field label="What" errors={failure?.fieldErrors?.kind}>
        <select name="kind" value={selection.kind} onChange={(e) => change({ kind: e.target.value as Kind })}>
          {(Object.keys(KIND_LABEL) as Kind[]).map((kind) => (
            <option key={kind} value={kind}>
              {KIND_LABEL[kind]}
            </option>
          ))}
        </select>
      </Field>
      <Field label="Service, group or scope id" errors={failure?.fieldErrors?.subject}>
        <input name="subject" value={selection.subject} onChange={(e) => change({ subject: e.target.value })} required autoComplete="off" />
      </Field>
      <label className="small">
        <input type="checkbox" name="every" checked={selection.every} onChange={(e) => change({ every: e.target.checked })} /> every key of it
      </label>
      {selection.every ? null : (
        <Field label="Key (message id or idempotency key)" errors={failure?.fieldErrors?.key}>
          <input name="key" value={selection.key} onChange={(e) => change({ key: e.target.value })} required autoComplete="off" />
        </Field>
      )}
      <div className="actions" style={{ marginTop: "0.75rem" }}>
        <button type="submit" disabled={preview.isPending}>
          {preview.isPending ? "Counting…" : "Preview (dry run)"}
        </button>
      </div>
      {previewed && !done ? (
        <>
          <table className="small" data-testid="erase-preview">
            <thead>
              <tr>
                <th>Table</th>
                <th className="num">Rows removed or redacted</th>
              </tr>
            </thead>
            <tbody>
              {Object.entries(previewed.counts).map(([table, n]) => (
                <tr key={table}>
                  <td>{table}</td>
                  <td className="num">{formatCount(n)}</td>
                </tr>
              ))}
            </tbody>
          </table>
          <ReasonedAction
            reason={reason}
            onReason={setReason}
            reasonErrors={failure?.fieldErrors?.reason}
            required
            tone="danger"
            blocked={!canErase}
            pending={erase.isPending}
            label={previewed.key === null ? `Erase every key of ${previewed.subject}` : "Erase this key"}
            pendingLabel="Erasing…"
            onConfirm={() => erase.mutate({ ...input, reason, confirmation })}
          >
            <Field label={previewed.key === null ? `Type "${previewed.confirmWord}" to confirm` : "Type the key again to confirm"} errors={failure?.fieldErrors?.confirmation}>
              <input name="confirmation" value={confirmation} onChange={(e) => setConfirmation(e.target.value)} autoComplete="off" />
            </Field>
          </ReasonedAction>
        </>
      ) : null}
      {done ? (
        <p className="callout" role="status" data-testid="erase-done">
          Erased: {formatCount(done.total)} rows removed or redacted in {done.durationMs} ms (audit entry #{done.auditId}
          {done.keyHash ? `, key recorded as ${done.keyHash}` : ""}).
        </p>
      ) : null}
      <FailureMessage failure={failure} />
    </form>
  );
}
