import Link from "next/link";
import { CopyButton } from "@/components/ui/copy-button";
import { ShortHash } from "@/components/ui/short-hash";
import { EmptyState } from "@/components/ui/empty-state";
import { hrefWith } from "@/components/ui/pager";
import { RelativeTime } from "@/components/ui/relative-time";
import { VisibleText } from "@/components/ui/visible-text";
import type { KeyBrowserRow } from "@/lib/views/key-browser";

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
        <tbody>
          {rows.map((row) => (
            <tr key={row.messageId}>
              <td className="break">
                <Link href={hrefWith(`/services/${serviceId}/key`, { id: row.messageId })}>
                  <VisibleText text={row.messageId} />
                </Link>{" "}
                <CopyButton value={row.messageId} label="message id" />
              </td>
              <td className="num">{row.version}</td>
              <td>
                <RelativeTime value={row.lastChanged} />
              </td>
              <td>
                <RelativeTime value={row.firstSeen} />
              </td>
              <td>
                <ShortHash value={row.hash} label="hash" digits={12} />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
