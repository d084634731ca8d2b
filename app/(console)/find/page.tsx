import type { Metadata } from "next";
import Link from "next/link";
import { Badge } from "@/components/ui/badge";
import { EmptyState } from "@/components/ui/empty-state";
import { hrefWith, PageNumberPager } from "@/components/ui/pager";
import { PageHeader } from "@/components/ui/page-header";
import { RelativeTime } from "@/components/ui/relative-time";
import { StoreUnavailableNotice } from "@/components/ui/store-unavailable";
import { VisibleText } from "@/components/ui/visible-text";
import { requireConsoleActor } from "@/lib/auth/console-actor";
import { FIND_MAX_LENGTH, findAnything } from "@/lib/views/find";
import { formatCount } from "@/lib/views/format";
import { pageSlice } from "@/lib/views/page-slice";
import { withStore } from "@/lib/console/store";
import { param, type SearchParams } from "@/lib/validation/console-common";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Find" };

/**
 * Matches per page. An id that exists in every one of 100 services rendered 100 rows: at 0.3–0.5 ms
 * of server rendering each, most of the page's time (the lookup itself took about 5 ms).
 */
const MATCHES_PER_PAGE = 25;

const KIND_LABELS = { key: "last-seen key", claim: "claim", idempotency: "idempotency key" } as const;

/** Why a hash is looked up in a bounded slice (measured: bench/console-pages.ts --hash-index-cost). */
function HashWhy() {
  return (
    <>
      Hashes are not indexed: an index on them would cost every new or changed check one more index write, for a lookup that is rare. Older
      keys holding the hash are not found here; open the service to browse its keys.
    </>
  );
}

function HashHelp() {
  return (
    <p className="panel small">
      Ids are matched exactly in every service, consumer group and idempotency scope. 64 hex digits are also looked up as a stored payload hash or
      an idempotency request hash, among each service&apos;s most recently changed keys and the newest idempotency keys. <HashWhy />
    </p>
  );
}

export default async function FindPage({ searchParams }: { searchParams: Promise<SearchParams> }) {
  await requireConsoleActor("read");
  const params = await searchParams;
  const raw = param(params.q);
  const query = typeof raw === "string" ? raw.trim().slice(0, FIND_MAX_LENGTH) : "";
  if (!query) {
    return (
      <>
        <PageHeader title="Find" description="Type an exact message id, claim id, idempotency key or hash in the box at the top." />
        <HashHelp />
      </>
    );
  }
  const loaded = await withStore((db) => findAnything(db, query));
  if (!loaded.ok) return <StoreUnavailableNotice />;
  const { matches, resetHref, hashScan } = loaded.data;
  const { shown, pageNumber, pages, firstIndex } = pageSlice(matches, param(params.page), MATCHES_PER_PAGE);
  const pageHref = (n: number) => hrefWith("/find", { q: query, page: n === 1 ? undefined : n });
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
      {hashScan ? (
        <p className="panel small" data-testid="hash-scope">
          Looked up as a hash too: among the {formatCount(hashScan.keysPerService)} most recently changed keys of each of {formatCount(hashScan.services)}{" "}
          service{hashScan.services === 1 ? "" : "s"} and the {formatCount(hashScan.idempotencyKeys)} newest idempotency keys. <HashWhy />
        </p>
      ) : null}
      {matches.length === 0 ? (
        <EmptyState title="Nothing is stored under this exact id.">
          Ids are matched exactly. To list ids that start with some text, open a service and filter its keys.
        </EmptyState>
      ) : (
        <>
          {/* Outside the table's scrolling box, so that at phone width the count stays in view as the table scrolls sideways. */}
          <p className="small muted" id="find-count" data-testid="find-count">
            {formatCount(matches.length)} match{matches.length === 1 ? "" : "es"}
            {pages > 1 ? `; ${formatCount(firstIndex + 1)}–${formatCount(firstIndex + shown.length)} shown` : ""}
          </p>
          <div className="table-wrap">
            <table data-testid="find-results" aria-label="Matches" aria-describedby="find-count">
              <thead>
                <tr>
                  <th>Kind</th>
                  <th>Matched by</th>
                  <th>Where</th>
                  <th>Id</th>
                  <th className="num">Version / attempt</th>
                  <th>Last change</th>
                </tr>
              </thead>
              <tbody>
                {shown.map((m) => (
                  <tr key={`${m.by}:${m.kind}:${m.owner}:${m.id}`}>
                    <td>
                      <Badge tone={m.kind}>{KIND_LABELS[m.kind]}</Badge>
                    </td>
                    <td className="small">{m.by === "hash" ? (m.kind === "idempotency" ? "request hash" : "stored hash") : "id"}</td>
                    <td className="cell-wide">
                      <code>{m.owner}</code>
                    </td>
                    <td className="break cell-wide">
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
        </>
      )}
      <PageNumberPager pageNumber={pageNumber} pages={pages} hrefOf={pageHref} />
    </>
  );
}
