"use client";
import Link from "next/link";
import { CopyButton } from "@/components/ui/copy-button";
import { hrefWith } from "@/components/ui/pager";
import { RelativeTime } from "@/components/ui/relative-time";
import { ShortHash } from "@/components/ui/short-hash";
import { VisibleText } from "@/components/ui/visible-text";
import type { KeyBrowserRow } from "@/lib/views/key-browser";

/**
 * The rows of the key browser. A client component on purpose, like the services list's rows: the
 * page's RSC payload then carries each key's five values (about 200 bytes) instead of every cell's
 * element tree with its links, copy buttons and times (about 850), which the server serialised,
 * parsed back and rendered on each request (docs/performance-console.md).
 */
export function KeyRows({ serviceId, rows }: { serviceId: string; rows: KeyBrowserRow[] }) {
  return (
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
  );
}
