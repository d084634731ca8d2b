import Form from "next/form";
import type { KeyVersionView } from "@/lib/views/key-detail";

function VersionSelect({ label, name, versions, selected }: { label: string; name: string; versions: KeyVersionView[]; selected: number }) {
  return (
    <label className="field">
      <span>{label}</span>
      <select name={name} defaultValue={String(selected)}>
        {versions.map((v) => (
          <option key={v.version} value={v.version}>
            v{v.version}
          </option>
        ))}
      </select>
    </label>
  );
}

/** Picks the two versions to compare; a GET form, so the comparison is a shareable URL. */
export function DiffPicker({
  serviceId,
  messageId,
  versions,
  from,
  to,
}: {
  serviceId: string;
  messageId: string;
  versions: KeyVersionView[];
  from: number;
  to: number;
}) {
  return (
    <Form action={`/services/${serviceId}/key`} className="filters" aria-label="Compare versions">
      <input type="hidden" name="id" value={messageId} />
      <VersionSelect label="From version" name="from" versions={versions} selected={from} />
      <VersionSelect label="To version" name="to" versions={versions} selected={to} />
      <button type="submit">Compare</button>
    </Form>
  );
}
