import Form from "next/form";
import type { KeyVersionView } from "@/lib/console/key-detail";

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
      <label className="field">
        <span>From version</span>
        <select name="from" defaultValue={String(from)}>
          {versions.map((v) => (
            <option key={v.version} value={v.version}>
              v{v.version}
            </option>
          ))}
        </select>
      </label>
      <label className="field">
        <span>To version</span>
        <select name="to" defaultValue={String(to)}>
          {versions.map((v) => (
            <option key={v.version} value={v.version}>
              v{v.version}
            </option>
          ))}
        </select>
      </label>
      <button type="submit">Compare</button>
    </Form>
  );
}
