import { EmptyState } from "@/components/ui/empty-state";
import type { KeyBrowserRow } from "@/lib/views/key-browser";
import { KeyRows } from "./key-rows";

export function KeyTable({ serviceId, rows, filtered }: { serviceId: string; rows: KeyBrowserRow[]; filtered: boolean }) {
  if (rows.length === 0) {
    return (
      <EmptyState title={filtered ? "No keys match these filters." : "This service has no keys yet."}>
        {filtered ? "Widen the time range or shorten the prefix." : "Keys appear with the first check for this service."}
      </EmptyState>
    );
  }
  return (
    <div className="table-wrap">
      <table data-testid="keys">
        <thead>
          <tr>
            <th>Message id</th>
            <th className="num">Version</th>
            <th>Last change</th>
            <th>First seen</th>
            <th>Hash</th>
          </tr>
        </thead>
        <KeyRows serviceId={serviceId} rows={rows} />
      </table>
    </div>
  );
}
