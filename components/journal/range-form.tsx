import Form from "next/form";
import Link from "next/link";
import { Field } from "@/components/ui/field";
import { InstantInput, ZoneName } from "@/components/ui/time-zone";
import { KIND_LABEL } from "@/lib/views/journal-format";

export interface RangeFormValues {
  from?: Date;
  to?: Date;
  kind?: string;
  subject?: string;
}

/**
 * A journal range as a GET form (every filter in the URL, so a link can be pasted into an incident
 * channel): from and to in the viewer's zone, sent as instants, and optionally one service, group or scope. A refused value stays as typed.
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
  const refused = (name: "from" | "to") => (bad(name) ? (raw[name] ?? "") : undefined);
  return (
    <Form action={action} className="panel filters" aria-label="Time range">
      <Field label={<>From (<ZoneName />)</>} errors={fieldErrors.from}>
        <InstantInput name="from" defaultValue={values.from} invalidText={refused("from")} placeholder="2025-01-31T14:00" required />
      </Field>
      <Field label={<>To (<ZoneName />)</>} errors={fieldErrors.to}>
        <InstantInput name="to" defaultValue={values.to} invalidText={refused("to")} placeholder="2025-01-31T15:00" required />
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
