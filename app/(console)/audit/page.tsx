import { Instant, InstantInput, ZoneName } from "@/components/ui/time-zone";
import type { Metadata } from "next";
import Form from "next/form";
import Link from "next/link";
import { EmptyState } from "@/components/ui/empty-state";
import { Field } from "@/components/ui/field";
import { InvalidFilters } from "@/components/ui/invalid-filters";
import { ListTotal } from "@/components/ui/list-total";
import { VisibleText } from "@/components/ui/visible-text";
import { hrefWith, Pager } from "@/components/ui/pager";
import { PageHeader } from "@/components/ui/page-header";
import { StoreUnavailableNotice } from "@/components/ui/store-unavailable";
import { requireConsoleActor } from "@/lib/auth/console-actor";
import { loadAuditPage } from "@/lib/audit/list";
import { loadAuditCount } from "@/lib/views/counts";
import { formatCount } from "@/lib/views/format";
import { withStore } from "@/lib/console/store";
import { rawValues, type SearchParams } from "@/lib/validation/console-common";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Audit log" };

export default async function AuditPage({ searchParams }: { searchParams: Promise<SearchParams> }) {
  await requireConsoleActor("read");
  const params = await searchParams;
  const loaded = await withStore((db) => loadAuditPage(db, params));
  if (!loaded.ok) return <StoreUnavailableNotice />;
  const { filters, fieldErrors, actions, entries, nextCursor, prevCursor } = loaded.data;
  const counted = filters
    ? await withStore((db) => loadAuditCount(db, { action: filters.action, actor: filters.actor, targetPrefix: filters.target, from: filters.from, to: filters.to }))
    : null;
  const total = counted?.ok ? counted.data : null;
  // A refused filter stays in its field as typed (text, since a date input would silently empty it).
  const raw = rawValues(params, ["actor", "target", "from", "to"]);
  const invalid = Object.keys(fieldErrors).length > 0;
  const base = {
    action: filters?.action,
    actor: filters?.actor,
    target: filters?.target,
    from: filters?.from?.toISOString(),
    to: filters?.to?.toISOString(),
  };
  return (
    <>
      <PageHeader
        title="Audit log"
        description="Every operator action: who, when, what, how many rows and why. Newest first."
        actions={
          <a className="button" href={hrefWith("/audit/export", base)} download data-testid="export-csv">
            Export CSV
          </a>
        }
      />
      <Form action="/audit" className="panel filters" aria-label="Audit filters">
        <Field label="Action" errors={fieldErrors.action}>
          <select name="action" defaultValue={filters?.action ?? ""}>
            <option value="">any</option>
            {actions.map((a) => (
              <option key={a}>{a}</option>
            ))}
          </select>
        </Field>
        <Field label="Actor" errors={fieldErrors.actor}>
          <input name="actor" defaultValue={filters?.actor ?? raw.actor ?? ""} placeholder="ops@example.com" />
        </Field>
        <Field label="Target starts with" errors={fieldErrors.target}>
          <input name="target" defaultValue={filters?.target ?? raw.target ?? ""} placeholder="service:adapter-2" />
        </Field>
        <Field label={<>From (<ZoneName />)</>} errors={fieldErrors.from}>
          <InstantInput name="from" defaultValue={filters?.from} invalidText={invalid ? (raw.from ?? "") : undefined} />
        </Field>
        <Field label={<>Before (<ZoneName />)</>} errors={fieldErrors.to}>
          <InstantInput name="to" defaultValue={filters?.to} invalidText={invalid ? (raw.to ?? "") : undefined} />
        </Field>
        <div className="actions">
          <button type="submit" className="primary">
            Filter
          </button>
          <Link href="/audit">Clear</Link>
        </div>
      </Form>
      {invalid ? (
        <InvalidFilters what="audit entries" />
      ) : entries.length === 0 ? (
        <EmptyState title="No audit entries match." />
      ) : (
        <div className="table-wrap">
          {total ? <ListTotal total={total} noun="entry" plural="entries" testId="audit-total" /> : null}
          <table data-testid="audit">
            <thead>
              <tr>
                <th>When</th>
                <th>Actor</th>
                <th>Action</th>
                <th>Target</th>
                <th className="num">Rows</th>
                <th>Reason</th>
                <th>Details</th>
              </tr>
            </thead>
            <tbody>
              {entries.map((e) => (
                <tr key={e.id}>
                  <td className="small"><Instant value={e.at} /></td>
                  <td className="small">
                    {e.actor} <span className="muted">({e.actorRole})</span>
                  </td>
                  <td>
                    <code>{e.action}</code>
                  </td>
                  <td className="break">
                    <code>
                      <VisibleText text={e.target} />
                    </code>
                  </td>
                  <td className="num">{formatCount(e.affected)}</td>
                  <td className="small break">{e.reason ?? ""}</td>
                  <td className="small break">
                    <code>{e.details}</code>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <Pager
        isFirst={invalid || (!params.before && !params.after)}
        firstHref={hrefWith("/audit", base)}
        prevHref={prevCursor ? hrefWith("/audit", { ...base, after: prevCursor }) : null}
        nextHref={nextCursor ? hrefWith("/audit", { ...base, before: nextCursor }) : null}
      />
    </>
  );
}
