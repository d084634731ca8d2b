import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { VisibleText } from "@/components/ui/visible-text";
import { InvalidFilters } from "@/components/ui/invalid-filters";
import { ListTotal } from "@/components/ui/list-total";
import { hrefWith, Pager } from "@/components/ui/pager";
import { PageHeader } from "@/components/ui/page-header";
import { StoreUnavailableNotice } from "@/components/ui/store-unavailable";
import { requireConsoleActor } from "@/lib/auth/console-actor";
import { can } from "@/lib/auth/authorize";
import { examplePrefix } from "@/lib/views/id-prefix";
import { loadKeyBrowser } from "@/lib/views/key-browser";
import { withStore } from "@/lib/console/store";
import type { SearchParams } from "@/lib/validation/console-common";
import { serviceIdSchema } from "@/lib/validation/common";
import { KeyFilters } from "./_components/key-filters";
import { KeyTable } from "./_components/key-table";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Keys" };

export default async function KeyBrowserPage({
  params,
  searchParams,
}: {
  params: Promise<{ serviceId: string }>;
  searchParams: Promise<SearchParams>;
}) {
  const actor = await requireConsoleActor("read");
  const serviceId = serviceIdSchema.safeParse((await params).serviceId);
  if (!serviceId.success) notFound();
  const query = await searchParams;
  const loaded = await withStore((db) => loadKeyBrowser(db, serviceId.data, query));
  if (!loaded.ok) return <StoreUnavailableNotice />;
  if (!loaded.data) notFound();
  const { service, filters, fieldErrors, raw, rows, nextCursor, prevCursor, total } = loaded.data;
  const base = {
    prefix: filters?.prefix,
    from: filters?.from?.toISOString(),
    to: filters?.to?.toISOString(),
    // At least one version is every key: not a filter.
    minVersion: filters?.minVersion !== undefined && filters.minVersion > 1 ? filters.minVersion : undefined,
    sort: filters?.sort === "asc" ? "asc" : undefined,
  };
  const filtered = Boolean(base.prefix || base.from || base.to || base.minVersion);
  // The reset opens with the browser's filter, so its preview counts exactly the keys shown here.
  const resetHref = hrefWith("/reset", { kind: "last_seen", subject: service.id, mode: "filter", prefix: base.prefix, from: base.from, to: base.to, minVersion: base.minVersion });
  return (
    <>
      <PageHeader
        title={<VisibleText text={service.displayName} />}
        description={
          <>
            <code>{service.id}</code> · {service.historyDepth === 0 ? "keeps hashes only" : `keeps ${service.historyDepth} payload versions per key`} ·
            {service.includedPaths.length ? (
              <>
                hashes only <code>{service.includedPaths.join(", ")}</code> ·{" "}
              </>
            ) : null}
            ignored paths: {service.ignoredPaths.length ? <code>{service.ignoredPaths.join(", ")}</code> : "none"} · normalises:{" "}
            {service.normalise.length ? <code>{service.normalise.join(", ")}</code> : "nothing"} · hash settings v
            {service.hashVersion}
          </>
        }
        actions={
          <>
            {can(actor, "admin", { kind: "services", id: service.id }) ? (
              <Link className="button" href={`/services/${service.id}/settings`}>
                Settings…
              </Link>
            ) : null}
            {can(actor, "operate") ? (
              <Link className="button" href={resetHref}>
                {filtered ? "Reset these keys…" : "Reset keys…"}
              </Link>
            ) : null}
          </>
        }
      />
      <KeyFilters serviceId={service.id} filters={filters} raw={raw} fieldErrors={fieldErrors} prefixExample={examplePrefix(rows.map((r) => r.messageId))} />
      {filters === null ? (
        <InvalidFilters what="keys" />
      ) : (
        <>
          {total ? <ListTotal total={total} noun={filtered ? "matching key" : "key"} testId="key-total" /> : null}
          <KeyTable serviceId={service.id} rows={rows} filtered={filtered} />
          <Pager
            isFirst={!filters.after && !filters.before}
            firstHref={hrefWith(`/services/${service.id}`, base)}
            prevHref={prevCursor ? hrefWith(`/services/${service.id}`, { ...base, before: prevCursor }) : null}
            nextHref={nextCursor ? hrefWith(`/services/${service.id}`, { ...base, after: nextCursor }) : null}
          />
        </>
      )}
    </>
  );
}
