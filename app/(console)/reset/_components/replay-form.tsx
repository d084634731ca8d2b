"use client";
import { useMutation } from "@tanstack/react-query";
import { useRouter } from "next/navigation";
import { useState, type FormEvent } from "react";
import { Field } from "@/components/ui/field";
import { useTimeZone, ZoneName } from "@/components/ui/time-zone";
import { FailureMessage } from "@/components/ui/failure-message";
import { ReasonedAction } from "@/components/ui/reasoned-action";
import { previewReplayResetAction, startReplayResetAction } from "@/lib/actions/replay";
import { useFollowFailure } from "@/lib/console/client-failure";
import { formatCount } from "@/lib/views/format";
import { inputToParam } from "@/lib/views/time-zone";

const EMPTY = { kind: "window" as "last_seen" | "window", subject: "", stream: "", by: "seq" as "seq" | "time", fromSeq: "", toSeq: "", from: "", to: "", where: "header" as "header" | "path", location: "Nats-Msg-Id" };

/** A JetStream range -> the keys it names -> preview -> reason (and typed confirmation) -> the resets, each on its page. */
export function ReplayForm({ natsUrl }: { natsUrl: string }) {
  const followFailure = useFollowFailure();
  const router = useRouter();
  const zone = useTimeZone();
  const [form, setForm] = useState(EMPTY);
  const [reason, setReason] = useState("");
  const [confirmation, setConfirmation] = useState("");
  const preview = useMutation({ mutationFn: previewReplayResetAction });
  const start = useMutation({
    mutationFn: startReplayResetAction,
    onSuccess: (result) => (result.ok ? router.push(`/reset/${result.data[0]!.id}`) : followFailure(result)),
  });
  const change = (next: Partial<typeof EMPTY>) => {
    setForm({ ...form, ...next });
    preview.reset();
    setConfirmation("");
  };
  const range = {
    kind: form.kind,
    subject: form.subject.trim(),
    stream: form.stream.trim(),
    ...(form.by === "seq" ? { fromSeq: form.fromSeq, toSeq: form.toSeq } : { from: inputToParam(form.from, zone), to: inputToParam(form.to, zone) }),
    idFrom: form.where === "header" ? { header: form.location } : { path: form.location },
  };
  const previewed = preview.data?.ok ? preview.data.data : null;
  const failure = (start.data && !start.data.ok ? start.data : null) ?? (preview.data && !preview.data.ok ? preview.data : null);
  const errors = failure?.fieldErrors ?? {};
  const confirmed = !previewed?.confirmWord || confirmation.trim() === previewed.confirmWord;
  const onPreview = (event: FormEvent) => {
    event.preventDefault();
    start.reset();
    preview.mutate(range, { onSuccess: (result) => (result.ok ? undefined : followFailure(result)) });
  };
  return (
    <form className="panel" onSubmit={onPreview} aria-label="Reset from a JetStream range">
      <h2>Reset from a JetStream range</h2>
      <p className="small muted">Reads the range from {natsUrl} (nothing is acked, no durable consumer moves) and resets exactly the keys it names.</p>
      <Field label="Reset" errors={errors.kind}>
        <select name="replayKind" value={form.kind} onChange={(e) => change({ kind: e.target.value as typeof form.kind })}>
          <option value="window">window records of a consumer group</option>
          <option value="last_seen">last-seen keys of a service</option>
        </select>
      </Field>
      <Field label="Consumer group or service id" errors={errors.subject}>
        <input name="replaySubject" value={form.subject} onChange={(e) => change({ subject: e.target.value })} required autoComplete="off" />
      </Field>
      <Field label="Stream" errors={errors.stream}>
        <input name="stream" value={form.stream} onChange={(e) => change({ stream: e.target.value })} required autoComplete="off" />
      </Field>
      <Field label="Range by">
        <select name="by" value={form.by} onChange={(e) => change({ by: e.target.value as typeof form.by })}>
          <option value="seq">stream sequence (both ends included)</option>
          <option value="time">time stored (from included, to excluded)</option>
        </select>
      </Field>
      {form.by === "seq" ? (
        <>
          <Field label="From sequence" errors={errors.fromSeq}>
            <input name="fromSeq" inputMode="numeric" value={form.fromSeq} onChange={(e) => change({ fromSeq: e.target.value })} required />
          </Field>
          <Field label="To sequence" errors={errors.toSeq}>
            <input name="toSeq" inputMode="numeric" value={form.toSeq} onChange={(e) => change({ toSeq: e.target.value })} required />
          </Field>
        </>
      ) : (
        <>
          <Field label={<>From (<ZoneName />)</>} errors={errors.from}>
            <input name="replayFrom" type="datetime-local" value={form.from} onChange={(e) => change({ from: e.target.value })} required />
          </Field>
          <Field label={<>To (<ZoneName />)</>} errors={errors.to}>
            <input name="replayTo" type="datetime-local" value={form.to} onChange={(e) => change({ to: e.target.value })} required />
          </Field>
        </>
      )}
      <Field label="The message id is in" errors={errors.header ?? errors.path}>
        <select name="where" value={form.where} onChange={(e) => change({ where: e.target.value as typeof form.where, location: e.target.value === "header" ? "Nats-Msg-Id" : "/id" })}>
          <option value="header">a header</option>
          <option value="path">the payload (JSON pointer)</option>
        </select>
      </Field>
      <Field label={form.where === "header" ? "Header name" : "JSON pointer"}>
        <input name="location" value={form.location} onChange={(e) => change({ location: e.target.value })} required autoComplete="off" />
      </Field>
      <div className="actions" style={{ marginTop: "0.75rem" }}>
        <button type="submit" disabled={preview.isPending}>
          {preview.isPending ? "Reading the range…" : "Preview (dry run)"}
        </button>
      </div>
      {previewed ? (
        <p className="callout" data-testid="replay-preview">
          {formatCount(previewed.messages)} messages (seq {previewed.firstSeq ?? "–"}..{previewed.lastSeq ?? "–"}) name {formatCount(previewed.idCount)} ids:{" "}
          <strong>{formatCount(previewed.count)}</strong> have state and would be reset
          {previewed.parts > 1 ? ` in ${previewed.parts} resets` : ""}, {formatCount(previewed.missing)} have none
          {previewed.withoutId ? `; ${formatCount(previewed.withoutId)} messages had no id there` : ""}.
        </p>
      ) : null}
      {previewed && previewed.count > 0 ? (
        <ReasonedAction
          reason={reason}
          onReason={setReason}
          reasonErrors={errors.reason}
          required
          tone="danger"
          blocked={!(reason.trim() && confirmed) || start.isPending}
          pending={start.isPending}
          label={`Reset ${formatCount(previewed.count)} keys`}
          pendingLabel="Starting…"
          onConfirm={() => start.mutate({ range, reason, confirmation: confirmation || undefined })}
        >
          {previewed.confirmWord ? (
            <Field label={`Type "${previewed.confirmWord}" to confirm`} errors={errors.confirmation}>
              <input name="replayConfirmation" value={confirmation} onChange={(e) => setConfirmation(e.target.value)} autoComplete="off" />
            </Field>
          ) : null}
        </ReasonedAction>
      ) : null}
      <FailureMessage failure={failure} />
    </form>
  );
}
