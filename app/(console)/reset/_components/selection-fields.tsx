"use client";
import type { ChangeEvent } from "react";
import { Field } from "@/components/ui/field";
import { ZoneName } from "@/components/ui/time-zone";

export interface SelectionState {
  kind: "last_seen" | "window";
  subject: string;
  mode: "key" | "list" | "filter";
  messageId: string;
  messageIds: string;
  prefix: string;
  from: string;
  to: string;
}

/** What to reset: a service's keys or a group's records; one key, a list (pasted or uploaded) or a filter. */
export function SelectionFields({
  value,
  onChange,
  errors,
  services,
  groups,
}: {
  value: SelectionState;
  onChange: (next: SelectionState) => void;
  errors: Record<string, string[]>;
  services: string[];
  groups: string[];
}) {
  const set = (patch: Partial<SelectionState>) => onChange({ ...value, ...patch });
  const upload = async (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0];
    if (file) set({ messageIds: await file.text() });
  };
  const timeLabel = value.kind === "last_seen" ? "last change" : "claim";
  return (
    <>
      <div className="filters">
        <Field label="Reset" errors={errors.kind}>
          <select value={value.kind} onChange={(e) => set({ kind: e.target.value as SelectionState["kind"] })} name="kind">
            <option value="last_seen">a service&apos;s last-seen keys</option>
            <option value="window">a consumer group&apos;s window records</option>
          </select>
        </Field>
        <Field label={value.kind === "last_seen" ? "Service id" : "Consumer group id"} errors={errors.subject}>
          <input name="subject" list="reset-subjects" value={value.subject} onChange={(e) => set({ subject: e.target.value })} required />
          <datalist id="reset-subjects">
            {(value.kind === "last_seen" ? services : groups).map((id) => (
              <option key={id} value={id} />
            ))}
          </datalist>
        </Field>
        <div className="field">
          <span>Which rows</span>
          <div className="tabs" role="group" aria-label="Which rows">
            {(["key", "list", "filter"] as const).map((mode) => (
              <button key={mode} type="button" aria-pressed={value.mode === mode} onClick={() => set({ mode })}>
                {mode === "key" ? "One key" : mode === "list" ? "A list of ids" : "A filter"}
              </button>
            ))}
          </div>
        </div>
      </div>
      <div className="filters" style={{ marginTop: "0.75rem" }}>
        {value.mode === "key" ? (
          <Field label="Message id" errors={errors.messageId}>
            <input name="messageId" value={value.messageId} onChange={(e) => set({ messageId: e.target.value })} size={40} />
          </Field>
        ) : null}
        {value.mode === "list" ? (
          <Field label="Message ids, one per line" errors={errors.messageIds} hint="Paste them, or load a text file with one id per line (up to 10,000).">
            <textarea name="messageIds" rows={6} cols={48} value={value.messageIds} onChange={(e) => set({ messageIds: e.target.value })} />
            <input type="file" accept=".txt,.csv,text/plain" onChange={upload} aria-label="Load ids from a file" />
          </Field>
        ) : null}
        {value.mode === "filter" ? (
          <>
            <Field label="Message id starts with" errors={errors.prefix} hint="Empty: every id.">
              <input name="prefix" value={value.prefix} onChange={(e) => set({ prefix: e.target.value })} />
            </Field>
            <Field label={<>{timeLabel} from (<ZoneName />)</>} errors={errors.from}>
              <input type="datetime-local" name="from" value={value.from} onChange={(e) => set({ from: e.target.value })} />
            </Field>
            <Field label={<>{timeLabel} before (<ZoneName />)</>} errors={errors.to}>
              <input type="datetime-local" name="to" value={value.to} onChange={(e) => set({ to: e.target.value })} />
            </Field>
          </>
        ) : null}
      </div>
    </>
  );
}
