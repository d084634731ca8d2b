import Form from "next/form";
import Link from "next/link";
import { Field } from "@/components/ui/field";
import { toInputInstant } from "@/lib/console/format";
import type { KeyBrowserQuery } from "@/lib/validation/console-keys";

/** Filters are a GET form: every filter lives in the URL, so a link can be shared in an incident channel. */
export function KeyFilters({
  serviceId,
  filters,
  fieldErrors,
}: {
  serviceId: string;
  filters: KeyBrowserQuery | null;
  fieldErrors: Record<string, string[]>;
}) {
  return (
    <Form action={`/services/${serviceId}`} className="panel filters" aria-label="Key filters">
      <Field label="Message id starts with" errors={fieldErrors.prefix}>
        <input name="prefix" defaultValue={filters?.prefix ?? ""} placeholder="B-0" size={18} />
      </Field>
      <Field label="Changed from (UTC)" errors={fieldErrors.from}>
        <input type="datetime-local" name="from" defaultValue={toInputInstant(filters?.from)} />
      </Field>
      <Field label="Changed before (UTC)" errors={fieldErrors.to}>
        <input type="datetime-local" name="to" defaultValue={toInputInstant(filters?.to)} />
      </Field>
      <Field label="At least versions" errors={fieldErrors.minVersion}>
        <input type="number" name="minVersion" min={1} defaultValue={filters?.minVersion ?? ""} style={{ width: "7rem" }} />
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
