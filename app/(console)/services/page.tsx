import type { Metadata } from "next";
import Form from "next/form";
import Link from "next/link";
import { sparklineSegments } from "@/components/charts/sparkline";
import { EmptyState } from "@/components/ui/empty-state";
import { hrefWith, PageNumberPager } from "@/components/ui/pager";
import { PageHeader } from "@/components/ui/page-header";
import { StoreUnavailableNotice } from "@/components/ui/store-unavailable";
import { requireConsoleActor } from "@/lib/auth/console-actor";
import { formatCount, formatPercent } from "@/lib/views/format";
import { loadServicePage, SERVICE_SORTS, type ServiceListItem, type ServiceSort } from "@/lib/views/services";
import { withStore } from "@/lib/console/store";
import { param, type SearchParams } from "@/lib/validation/console-common";
import { ServiceRows, type ServiceRow } from "./_components/service-rows";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Services" };

/**
 * Services per page, as Sidekiq's and kafka-ui's lists page. Rendering the rows is most of the page's
 * server time at 10 M keys (docs/performance-console.md); a page number in the URL keeps a page
 * shareable, and the search and sort apply to the whole list before it is cut.
 */
const SERVICES_PER_PAGE = 25;

const COLUMNS: [ServiceSort | null, string, boolean][] = [
  ["name", "Service", false],
  ["keys", "Keys", true],
  ["activity", "Last activity", false],
  ["checks", "Checks (24 h)", true],
  ["duplicates", "Duplicate rate (24 h)", true],
  [null, "vs previous 24 h", false],
  [null, "Duplicate rate per hour", false],
  [null, "Versions kept", true],
];

/** What a row shows, and no more: the rates per hour go as the sparkline's paths (a few bytes), not as 24 numbers. */
const toRow = ({ id, displayName, keys, keysExact, lastActivity, checks24h, duplicates24h, previous24h, historyDepth, duplicateRates }: ServiceListItem): ServiceRow => ({
  id,
  displayName,
  keys,
  keysExact,
  lastActivity,
  checks24h,
  duplicates24h,
  previous24h,
  historyDepth,
  spark: sparklineSegments(duplicateRates),
  sparkLabel: `Duplicate rate per hour over 24 h, highest ${formatPercent(Math.max(0, ...duplicateRates.map((r) => r ?? 0)), 1)}`,
});

export default async function ServicesPage({ searchParams }: { searchParams: Promise<SearchParams> }) {
  await requireConsoleActor("read");
  const params = await searchParams;
  const q = String(param(params.q) ?? "").slice(0, 128);
  const rawSort = param(params.sort);
  const sort: ServiceSort = (SERVICE_SORTS as readonly unknown[]).includes(rawSort) ? (rawSort as ServiceSort) : "name";
  const loaded = await withStore((db) => loadServicePage(db, { q, sort, page: param(params.page) }, SERVICES_PER_PAGE));
  if (!loaded.ok) return <StoreUnavailableNotice />;
  const { shown, total, matched, pageNumber, pages, firstIndex } = loaded.data;
  const pageHref = (n: number) => hrefWith("/services", { q, sort: sort === "name" ? undefined : sort, page: n === 1 ? undefined : n });
  return (
    <>
      <PageHeader title="Services & keys" description="Every service weir keeps last-seen state for. Open one to browse its keys." />
      {total === 0 ? (
        <EmptyState title="No services registered yet.">Register one with PUT /api/v1/services/:id, then send checks.</EmptyState>
      ) : (
        <>
          <Form action="/services" className="panel filters" aria-label="Search services">
            <label className="field">
              <span>Id or name contains</span>
              <input name="q" type="search" defaultValue={q} size={24} />
            </label>
            <input type="hidden" name="sort" value={sort} />
            <button type="submit">Search</button>
            <span className="small muted" data-testid="service-count">
              {q ? `${formatCount(matched)} of ${formatCount(total)} services` : `${formatCount(total)} services`}
              {pages > 1 ? `; ${formatCount(firstIndex + 1)}–${formatCount(firstIndex + shown.length)} shown` : ""}
            </span>
          </Form>
          {matched === 0 ? (
            <EmptyState title={`No service id or name contains “${q}”.`} />
          ) : (
            <div className="table-wrap">
              <table data-testid="services">
                <thead>
                  <tr>
                    {COLUMNS.map(([key, label, num]) => (
                      <th key={label} className={num ? "num" : undefined} aria-sort={key === sort ? (key === "name" ? "ascending" : "descending") : undefined}>
                        {key ? (
                          <Link href={hrefWith("/services", { q, sort: key })} className="sort-link">
                            {label}
                            {key === sort ? (key === "name" ? " ↑" : " ↓") : ""}
                          </Link>
                        ) : (
                          label
                        )}
                      </th>
                    ))}
                  </tr>
                </thead>
                <ServiceRows rows={shown.map(toRow)} />
              </table>
            </div>
          )}
          <PageNumberPager pageNumber={pageNumber} pages={pages} hrefOf={pageHref} />
        </>
      )}
    </>
  );
}
