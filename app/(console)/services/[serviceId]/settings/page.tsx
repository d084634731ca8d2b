import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { PageHeader } from "@/components/ui/page-header";
import { StoreUnavailableNotice } from "@/components/ui/store-unavailable";
import { VisibleText } from "@/components/ui/visible-text";
import { requireConsoleActor } from "@/lib/auth/console-actor";
import { can } from "@/lib/auth/authorize";
import { withStore } from "@/lib/console/store";
import { serviceIdSchema } from "@/lib/validation/common";
import { loadServiceSettings } from "@/lib/views/service-settings";
import { JournalLevelForm } from "@/components/journal/journal-level-form";
import { loadJournalLevel } from "@/lib/views/journal-level";
import { SettingsForm } from "./settings-form";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Service settings" };

export default async function ServiceSettingsPage({ params }: { params: Promise<{ serviceId: string }> }) {
  const actor = await requireConsoleActor("read");
  const serviceId = serviceIdSchema.safeParse((await params).serviceId);
  if (!serviceId.success) notFound();
  const id = serviceId.data;
  if (!can(actor, "admin", { kind: "services", id })) {
    return (
      <>
        <PageHeader title="Service settings" description={<Link href={`/services/${id}`}>Back to the keys of {id}</Link>} />
        <p className="panel muted" data-testid="settings-refused">
          Changing a service&apos;s settings needs the admin role; the service page shows them.
        </p>
      </>
    );
  }
  const loaded = await withStore((db) => Promise.all([loadServiceSettings(db, id), loadJournalLevel(db, "service", id)]));
  if (!loaded.ok) return <StoreUnavailableNotice />;
  const [service, journal] = loaded.data;
  if (!service) notFound();
  return (
    <>
      <PageHeader
        title={
          <>
            Settings of <VisibleText text={service.displayName} />
          </>
        }
        description={
          <>
            <code>{service.id}</code> · hash settings v{service.hashVersion} · <Link href={`/services/${service.id}`}>keys</Link>
          </>
        }
      />
      <SettingsForm service={service} />
      <JournalLevelForm kind="service" subject={service.id} level={journal.level} enabled={journal.enabled} editable={can(actor, "operate", { kind: "services", id: service.id })} />
    </>
  );
}
