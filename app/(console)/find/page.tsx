import type { Metadata } from "next";
import Link from "next/link";
import { Badge } from "@/components/ui/badge";
import { EmptyState } from "@/components/ui/empty-state";
import { PageHeader } from "@/components/ui/page-header";
import { RelativeTime } from "@/components/ui/relative-time";
import { StoreUnavailableNotice } from "@/components/ui/store-unavailable";
import { VisibleText } from "@/components/ui/visible-text";
import { requireConsoleActor } from "@/lib/auth/console-actor";
import { FIND_MAX_LENGTH, findAnything } from "@/lib/console/find";
import { withStore } from "@/lib/console/store";
import { param, type SearchParams } from "@/lib/validation/console-common";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Find" };

const KIND_LABELS = { key: "last-seen key", claim: "claim", idempotency: "idempotency key" } as const;

export default async function FindPage({ searchParams }: { searchParams: Promise<SearchParams> }) {
  await requireConsoleActor("read");
  const raw = param((await searchParams).q);
  const query = typeof raw === "string" ? raw.trim().slice(0, FIND_MAX_LENGTH) : "";
  if (!query) {
    return (
      <>
        <PageHeader title="Find" description="Type an exact message id, claim id or idempotency key in the box at the top." />
      </>
    );
  }
  const loaded = await withStore((db) => findAnything(db, query));
  if (!loaded.ok) return <StoreUnavailableNotice />;
  const { matches, resetHref } = loaded.data;
  return (
    <>
      <PageHeader
        title={
          <>
            Find “<VisibleText text={query} />”
          </>
        }
        description="Exact matches across every service, consumer group and idempotency scope."
      />
      {resetHref ? (
        <p className="panel small">
          Also a reset number: <Link href={resetHref}>reset #{query}</Link>.
        </p>
      ) : null}
      {matches.length === 0 ? (
        <EmptyState title="Nothing is stored under this exact id.">
          Ids are matched exactly. To list ids that start with some text, open a service and filter its keys.
        </EmptyState>
      ) : (
        <div className="table-wrap">
          <table data-testid="find-results">
            <caption className="small muted">
              {matches.length} match{matches.length === 1 ? "" : "es"}
            </caption>
            <thead>
              <tr>
                <th>Kind</th>
                <th>Where</th>
                <th>Id</th>
                <th className="num">Version / attempt</th>
                <th>Last change</th>
              </tr>
            </thead>
            <tbody>
              {matches.map((m) => (
                <tr key={`${m.kind}:${m.owner}`}>
                  <td>
                    <Badge tone={m.kind}>{KIND_LABELS[m.kind]}</Badge>
                  </td>
                  <td>
                    <code>{m.owner}</code>
                  </td>
                  <td className="break">
                    <Link href={m.href}>
                      <VisibleText text={m.id} />
                    </Link>
                  </td>
                  <td className="num">{m.version ?? "–"}</td>
                  <td>
                    <RelativeTime value={m.at} />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </>
  );
}
