"use client";
import Link from "next/link";
import { Badge } from "@/components/ui/badge";
import { CopyButton } from "@/components/ui/copy-button";
import { hrefWith } from "@/components/ui/pager";
import { RelativeTime } from "@/components/ui/relative-time";
import { VisibleText } from "@/components/ui/visible-text";
import type { IdempotencyKeyView } from "@/lib/views/idempotency";

/** What a row of the scope's keys shows; the page sends only these (not the stored responses). */
export type IdempotencyKeyRow = Pick<IdempotencyKeyView, "scope" | "key" | "state" | "attempt" | "createdAt" | "lockedUntil" | "expiresAt">;

/**
 * The rows of a scope's keys. A client component on purpose, like the key browser's rows: the RSC
 * payload carries each key's values instead of every cell's element tree (docs/performance-console.md).
 */
export function IdempotencyKeyRows({ rows }: { rows: IdempotencyKeyRow[] }) {
  return (
    <tbody>
      {rows.map((k) => (
        <tr key={k.key}>
          <td className="break">
            <Link href={hrefWith("/idempotency/key", { scope: k.scope, key: k.key })}>
              <VisibleText text={k.key} />
            </Link>{" "}
            <CopyButton value={k.key} label="key" />
          </td>
          <td>
            <Badge tone={k.state} />
          </td>
          <td className="num">{k.attempt}</td>
          <td className="small">
            <RelativeTime value={k.createdAt} />
          </td>
          <td className="small">
            <RelativeTime value={k.lockedUntil} />
          </td>
          <td className="small">
            <RelativeTime value={k.expiresAt} />
          </td>
        </tr>
      ))}
    </tbody>
  );
}
