import type { Metadata } from "next";
import { PageHeader } from "@/components/ui/page-header";
import { StoreUnavailableNotice } from "@/components/ui/store-unavailable";
import { requireConsoleActor } from "@/lib/auth/console-actor";
import { can } from "@/lib/auth/authorize";
import { keyBrowserSelection, loadResetPage } from "@/lib/views/reset-page";
import { withStore } from "@/lib/console/store";
import { CONFIRM_THRESHOLD, MAX_LIST_IDS } from "@/lib/reset/constants";
import { instantSchema, param, type SearchParams } from "@/lib/validation/console-common";
import { setting } from "@/lib/config";
import { displayZone } from "@/lib/views/zone-preference";
import { toInputInstant } from "@/lib/views/time-zone";
import { ReplayForm } from "./_components/replay-form";
import { ResetList } from "./_components/reset-list";
import { ResetClient, type ResetPrefill } from "./reset-client";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Reset" };

function natsHost(url: string | undefined): string | undefined {
  if (!url) return undefined;
  try {
    return new URL(url.includes("://") ? url : `nats://${url}`).host;
  } catch {
    return "the configured NATS server";
  }
}

const text = (value: unknown) => (typeof param(value) === "string" ? String(param(value)).slice(0, 512) : "");

/** A from/to of the URL (an instant) as the time input shows it in the viewer's zone; as given when it is none. */
function instantText(value: unknown, zone: string): string {
  const parsed = instantSchema.safeParse(value);
  return parsed.success && parsed.data ? toInputInstant(parsed.data, zone) : text(value);
}

export default async function ResetPage({ searchParams }: { searchParams: Promise<SearchParams> }) {
  const actor = await requireConsoleActor("read");
  const query = await searchParams;
  // Shown as where the range is read from: the host only, never credentials in the URL.
  const natsUrl = natsHost(setting("WEIR_NATS_URL"));
  const zone = await displayZone();
  const loaded = await withStore((db) => loadResetPage(db));
  if (!loaded.ok) return <StoreUnavailableNotice />;
  const prefill: ResetPrefill = {
    kind: text(query.kind) === "window" ? "window" : "last_seen",
    subject: text(query.subject),
    mode: (["key", "list", "filter"] as const).find((m) => m === text(query.mode)) ?? "key",
    messageId: text(query.messageId),
    prefix: text(query.prefix),
    from: instantText(query.from, zone),
    to: instantText(query.to, zone),
  };
  // From the key browser with a version filter: its keys, resolved into a list (see keyBrowserSelection).
  const fromBrowser = prefill.kind === "last_seen" && prefill.mode === "filter" && prefill.subject ? await withStore((db) => keyBrowserSelection(db, prefill.subject, query)) : null;
  const browsed = fromBrowser?.ok ? fromBrowser.data : null;
  if (browsed && !browsed.tooMany) Object.assign(prefill, { mode: "list", messageIds: browsed.ids.join("\n") });
  return (
    <>
      <PageHeader
        title="Reset (replay preparation)"
        description={`Forget last-seen keys or window records so that replayed events are processed again. Every reset is previewed, needs a reason, is typed-confirmed above ${CONFIRM_THRESHOLD} rows, audited, and can be undone for ${loaded.data.retentionDays} days.`}
      />
      {browsed ? (
        <p className="panel callout" role="status" data-testid="browser-selection">
          {browsed.tooMany
            ? `More than ${MAX_LIST_IDS.toLocaleString("en-US")} keys have version ${browsed.minVersion} or more under this filter: narrow it in the key browser, or reset by prefix and time alone below.`
            : `The key browser's filter (version ${browsed.minVersion} or more) matches ${browsed.ids.length.toLocaleString("en-US")} keys; they are listed below, so the preview counts exactly those.`}
        </p>
      ) : null}
      {can(actor, "operate") ? (
        <>
          <ResetClient prefill={prefill} services={loaded.data.services} groups={loaded.data.groups} />
          {natsUrl ? <ReplayForm natsUrl={natsUrl} /> : null}
        </>
      ) : (
        <p className="panel muted">Resetting needs the operator role; you can follow resets below.</p>
      )}
      <section className="panel">
        <h2>Recent resets</h2>
        <ResetList resets={loaded.data.resets} />
      </section>
    </>
  );
}
