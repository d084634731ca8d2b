import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { Badge } from "@/components/ui/badge";
import { hrefWith } from "@/components/ui/pager";
import { PageHeader } from "@/components/ui/page-header";
import { StoreUnavailableNotice } from "@/components/ui/store-unavailable";
import { requireConsoleActor } from "@/lib/auth/console-actor";
import { canOperate } from "@/lib/console/authorise";
import { formatInstant } from "@/lib/console/format";
import { loadIdempotencyKey } from "@/lib/console/idempotency";
import { withStore } from "@/lib/console/store";
import { param, type SearchParams } from "@/lib/validation/console-common";
import { idempotencyKeySchema, scopeIdSchema } from "@/lib/validation/idempotency";
import { ReleaseKey } from "./release-key";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Idempotency key" };

export default async function IdempotencyKeyPage({ searchParams }: { searchParams: Promise<SearchParams> }) {
  const actor = await requireConsoleActor("viewer");
  const query = await searchParams;
  const scope = scopeIdSchema.safeParse(param(query.scope));
  const key = idempotencyKeySchema.safeParse(param(query.key));
  if (!scope.success || !key.success) notFound();
  const loaded = await withStore((db) => loadIdempotencyKey(db, scope.data, key.data));
  if (!loaded.ok) return <StoreUnavailableNotice />;
  if (!loaded.data) notFound();
  const k = loaded.data;
  const rows: [string, string][] = [
    ["Attempt", String(k.attempt)],
    ["Request hash", k.requestHash],
    ["Created", formatInstant(k.createdAt)],
    ["Locked until", formatInstant(k.lockedUntil)],
    ["Completed", formatInstant(k.completedAt)],
    ["Expires", formatInstant(k.expiresAt)],
    ["Response status", k.responseStatus === null ? "–" : String(k.responseStatus)],
  ];
  return (
    <>
      <PageHeader
        title={<span className="break">{k.key}</span>}
        description={
          <>
            Scope <Link href={hrefWith("/idempotency", { scope: k.scope })}>{k.scope}</Link> · <Badge tone={k.state} />
          </>
        }
      />
      <section className="panel">
        <table className="small" data-testid="idempotency-key">
          <tbody>
            {rows.map(([label, value]) => (
              <tr key={label}>
                <th>{label}</th>
                <td className="break mono">{value}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </section>
      {k.state === "in_progress" || k.state === "stuck" ? (
        canOperate(actor) ? (
          <ReleaseKey scope={k.scope} idempotencyKey={k.key} attempt={k.attempt} stuck={k.state === "stuck"} />
        ) : null
      ) : null}
      <section className="panel">
        <h2>Stored response</h2>
        {k.responseBody === null ? (
          <p className="muted small">No response yet: the key is not completed.</p>
        ) : (
          <>
            {k.responseHeaders ? <pre className="payload">{k.responseHeaders}</pre> : null}
            <pre className="payload" data-testid="response-body">{k.responseBody}</pre>
          </>
        )}
      </section>
    </>
  );
}
