import Form from "next/form";
import Link from "next/link";
import { Field } from "@/components/ui/field";
import { toInputInstant } from "@/lib/views/format";
import { KIND_LABEL } from "@/lib/views/journal-format";

export interface RangeFormValues {
  from?: Date;
  to?: Date;
  kind?: string;
  subject?: string;
}

/**
 * A journal range as a GET form (every filter in the URL, so a link can be pasted into an incident
 * channel): from and to in UTC, and optionally one service, group or scope. A refused value stays as typed.
 */
export function RangeForm({
  action,
  values,
  raw,
  fieldErrors,
}: {
  action: string;
  values: RangeFormValues;
  raw: Record<string, string>;
  fieldErrors: Record<string, string[]>;
}) {
  const bad = (name: string) => Boolean(fieldErrors[name]?.length);
  const instant = (name: "from" | "to") => (bad(name) ? (raw[name] ?? "") : toInputInstant(values[name]));
  return (
    <Form action={action} className="panel filters" aria-label="Time range">
      <Field label="From (UTC)" errors={fieldErrors.from}>
        <input type={bad("from") ? "text" : "datetime-local"} name="from" defaultValue={instant("from")} placeholder="2025-01-31T14:00" required />
      </Field>
      <Field label="To (UTC)" errors={fieldErrors.to}>
        <input type={bad("to") ? "text" : "datetime-local"} name="to" defaultValue={instant("to")} placeholder="2025-01-31T15:00" required />
      </Field>
      <Field label="Subject kind" errors={fieldErrors.kind}>
        <select name="kind" defaultValue={values.kind ?? ""}>
          <option value="">Every subject</option>
          <KindOptions />
        </select>
      </Field>
      <Field label="Subject id (optional)" errors={fieldErrors.subject}>
        <input name="subject" defaultValue={bad("subject") ? (raw.subject ?? "") : (values.subject ?? "")} maxLength={128} size={20} />
      </Field>
      <div className="actions">
        <button type="submit" className="primary">
          Show
        </button>
        <Link href={action}>Last hour</Link>
      </div>
    </Form>
  );
}

/** The subject kinds of the journal as select options. */
export function KindOptions() {
  return Object.entries(KIND_LABEL).map(([kind, label]) => (
    <option key={kind} value={kind}>
      {label}
    </option>
  ));
}
