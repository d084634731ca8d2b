import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { CopyButton } from "@/components/ui/copy-button";
import { ShortHash } from "@/components/ui/short-hash";
import { DiffTable } from "@/components/ui/diff-table";
import { RelativeTime } from "@/components/ui/relative-time";
import { VisibleText } from "@/components/ui/visible-text";
import { hrefWith } from "@/components/ui/pager";
import { PageHeader } from "@/components/ui/page-header";
import { StoreUnavailableNotice } from "@/components/ui/store-unavailable";
import { requireConsoleActor } from "@/lib/auth/console-actor";
import { can } from "@/lib/auth/authorize";
import { KeyTimeline } from "@/components/journal/key-timeline";
import { loadKeyDetail } from "@/lib/views/key-detail";
import { loadKeyTimeline } from "@/lib/views/journal-timeline";
import { timelineBeforeSchema } from "@/lib/validation/console-journal";
import { withStore } from "@/lib/console/store";
import { param, type SearchParams } from "@/lib/validation/console-common";
import { keyRefSchema } from "@/lib/validation/console-keys";
import { DiffPicker } from "./_components/diff-picker";
import { VersionList } from "./_components/version-list";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Key" };

const versionParam = (value: unknown) => {
  const n = Number(param(value));
  return Number.isSafeInteger(n) && n > 0 ? n : undefined;
};

export default async function KeyDetailPage({
  params,
  searchParams,
}: {
  params: Promise<{ serviceId: string }>;
  searchParams: Promise<SearchParams>;
}) {
  const actor = await requireConsoleActor("read");
  const query = await searchParams;
  const ref = keyRefSchema.safeParse({ serviceId: (await params).serviceId, messageId: query.id });
  if (!ref.success) notFound();
  const { serviceId, messageId } = ref.data;
  const compare = { from: versionParam(query.from), to: versionParam(query.to) };
  const before = timelineBeforeSchema.safeParse(query.before).data;
  const loaded = await withStore(async (db) =>
    Promise.all([loadKeyDetail(db, serviceId, messageId, compare), loadKeyTimeline(db, { mode: "last_seen", subject: serviceId, key: messageId, before })]),
  );
  if (!loaded.ok) return <StoreUnavailableNotice />;
  const [detail, timeline] = loaded.data;
  const decisions = (
    <KeyTimeline
      timeline={timeline}
      olderHref={(older) => `${hrefWith(`/services/${serviceId}/key`, { id: messageId, before: older })}#key-decisions`}
      newestHref={before === undefined ? null : `${hrefWith(`/services/${serviceId}/key`, { id: messageId })}#key-decisions`}
    />
  );
  const title = (
    <span className="break">
      <VisibleText text={messageId} /> <CopyButton value={messageId} label="message id" />
    </span>
  );
  if (!detail) {
    // No state now (reset, or never stored), but the journal remembers what was answered.
    if (timeline.entries.length === 0 && before === undefined) notFound();
    return (
      <>
        <PageHeader
          title={title}
          description={
            <>
              Key of <Link href={`/services/${serviceId}`}>{serviceId}</Link>: no state is stored for it now (reset, or never stored); its answers are below.
            </>
          }
        />
        {decisions}
      </>
    );
  }
  const { service, state, versions, diff } = detail;
  return (
    <>
      <PageHeader
        title={title}
        description={
          <>
            Key of{" "}
            <Link href={`/services/${service.id}`}>
              <VisibleText text={service.displayName} />
            </Link>{" "}
            <code>{service.id}</code>
          </>
        }
        actions={
          <>
            <Link className="button" href={hrefWith("/explain", { service: service.id, message: state.messageId })}>
              Explain a payload
            </Link>
            {can(actor, "operate") ? (
              <Link className="button" href={hrefWith("/reset", { kind: "last_seen", subject: service.id, mode: "key", messageId: state.messageId })}>
                Reset this key…
              </Link>
            ) : null}
          </>
        }
      />
      <div className="stats" data-testid="key-state">
        <div className="stat">
          <div className="label">Version</div>
          <div className="value">{state.version}</div>
        </div>
        <div className="stat">
          <div className="label">First seen</div>
          <div className="value small">
            <RelativeTime value={state.firstSeen} />
          </div>
        </div>
        <div className="stat">
          <div className="label">Last change</div>
          <div className="value small">
            <RelativeTime value={state.lastChanged} />
          </div>
        </div>
        <div className="stat" data-testid="key-ref">
          <div className="label">Ref of this version</div>
          <div className="value small">{state.ref === null ? <span className="muted">none given</span> : <code><VisibleText text={state.ref} /></code>}</div>
        </div>
        <div className="stat">
          <div className="label">Current hash</div>
          <div className="value small mono">
            <ShortHash value={state.hash} label="current hash" />
          </div>
        </div>
      </div>
      {decisions}
      <section className="panel" aria-labelledby="what-is-hashed">
        <h2 id="what-is-hashed">What is hashed</h2>
        <p className="small">
          {service.includedPaths.length === 0 ? (
            "The whole payload"
          ) : (
            <>
              Only <code>{service.includedPaths.join(", ")}</code>
            </>
          )}
          {service.ignoredPaths.length === 0 ? (
            ", no path ignored."
          ) : (
            <>
              , without <code>{service.ignoredPaths.join(", ")}</code> (each version below says which of these it contained).
            </>
          )}{" "}
          Changes to anything else show as “not hashed” in the diff. These are the service’s hash settings v{service.hashVersion}
          {state.hashVersion === service.hashVersion ? (
            ", which this key’s hash was made under."
          ) : (
            <>
              ; this key’s hash was made under v{state.hashVersion}, so its next check compares the payload under those settings (then
              moves the key to v{service.hashVersion}).
            </>
          )}
        </p>
        {can(actor, "admin", { kind: "services", id: service.id }) ? (
          <p className="small">
            <Link href={`/services/${service.id}/settings`}>Change what is hashed…</Link>
          </p>
        ) : null}
      </section>
      <section className="panel">
        <h2>Diff between versions</h2>
        {diff === null ? (
          <p className="muted small">At least two kept payload versions are needed for a diff.</p>
        ) : (
          <>
            <DiffPicker serviceId={service.id} messageId={state.messageId} versions={versions} from={diff.from} to={diff.to} />
            <h3 data-testid="diff-heading">
              v{diff.from} → v{diff.to}
            </h3>
            {(compare.from !== undefined && compare.from !== diff.from) || (compare.to !== undefined && compare.to !== diff.to) ? (
              <p className="small muted" role="status">
                Only versions {versions.at(-1)!.version} to {versions[0]!.version} are kept; the nearest kept versions are compared instead.
              </p>
            ) : null}
            {"error" in diff ? <p className="form-error">{diff.error}</p> : <DiffTable entries={diff.entries} />}
          </>
        )}
      </section>
      <section className="panel">
        <h2>Stored payload versions</h2>
        <VersionList versions={versions} historyDepth={service.historyDepth} />
      </section>
    </>
  );
}
