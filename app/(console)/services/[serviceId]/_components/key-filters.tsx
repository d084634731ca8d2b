import Form from "next/form";
import Link from "next/link";
import { Field } from "@/components/ui/field";
import { InstantInput, ZoneName } from "@/components/ui/time-zone";
import type { KeyBrowserQuery } from "@/lib/validation/console-keys";

/**
 * Filters are a GET form: every filter lives in the URL, so a link can be shared in an incident channel.
 * A value the server refused stays in its field as typed (a text input, since a date or number input
 * would silently empty it), marked invalid, so it can be corrected.
 */
export function KeyFilters({
  serviceId,
  filters,
  raw,
  fieldErrors,
  prefixExample,
}: {
  serviceId: string;
  /** Made from the service's own ids (lib/views/id-prefix.ts); none when it has no keys yet. */
  prefixExample: string | null;
  filters: KeyBrowserQuery | null;
  raw: Record<string, string>;
  fieldErrors: Record<string, string[]>;
}) {
  const bad = (name: string) => Boolean(fieldErrors[name]?.length) || filters === null;
  const refused = (name: "from" | "to") => (bad(name) ? (raw[name] ?? "") : undefined);
  return (
    <Form action={`/services/${serviceId}`} className="panel filters" aria-label="Key filters">
      <Field label="Message id starts with" errors={fieldErrors.prefix}>
        <input name="prefix" defaultValue={filters?.prefix ?? raw.prefix ?? ""} placeholder={prefixExample ?? undefined} size={18} />
      </Field>
      <Field label={<>Changed from (<ZoneName />)</>} errors={fieldErrors.from}>
        <InstantInput name="from" defaultValue={filters?.from} invalidText={refused("from")} placeholder="2025-01-31T14:00" />
      </Field>
      <Field label={<>Changed before (<ZoneName />)</>} errors={fieldErrors.to}>
        <InstantInput name="to" defaultValue={filters?.to} invalidText={refused("to")} placeholder="2025-01-31T15:00" />
      </Field>
      <Field label="At least versions" errors={fieldErrors.minVersion}>
        <input
          type={bad("minVersion") ? "text" : "number"}
          name="minVersion"
          min={1}
          defaultValue={filters?.minVersion ?? raw.minVersion ?? ""}
          style={{ width: "7rem" }}
        />
      </Field>
      <Field label="Order" errors={fieldErrors.sort}>
        <select name="sort" defaultValue={filters?.sort ?? "desc"}>
          <option value="desc">Last change, newest first</option>
          <option value="asc">Last change, oldest first</option>
        </select>
      </Field>
      <div className="actions">
        <button type="submit" className="primary">
          Apply
        </button>
        <Link href={`/services/${serviceId}`}>Clear</Link>
      </div>
    </Form>
  );
}
