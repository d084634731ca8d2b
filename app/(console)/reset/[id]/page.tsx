import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { PageHeader } from "@/components/ui/page-header";
import { StoreUnavailableNotice } from "@/components/ui/store-unavailable";
import { requireConsoleActor } from "@/lib/auth/console-actor";
import { can } from "@/lib/auth/authorize";
import { loadReset } from "@/lib/views/reset-detail";
import { withStore } from "@/lib/console/store";
import { batchIdSchema } from "@/lib/validation/reset";
import { ResetProgressClient } from "./reset-progress-client";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Reset" };

export default async function ResetDetailPage({ params }: { params: Promise<{ id: string }> }) {
  const actor = await requireConsoleActor("read");
  const id = batchIdSchema.safeParse((await params).id);
  if (!id.success) notFound();
  const loaded = await withStore((db) => loadReset(db, id.data));
  if (!loaded.ok) return <StoreUnavailableNotice />;
  if (!loaded.data) notFound();
  const reset = loaded.data;
  return (
    <>
      <PageHeader
        title={`Reset #${reset.id}`}
        description={
          <>
            {reset.kind === "last_seen" ? "Last-seen keys of service " : "Window records of consumer group "}
            <code>{reset.subject}</code> · <Link href="/reset">all resets</Link> ·{" "}
            <Link href={`/audit?target=${reset.kind === "last_seen" ? "service" : "consumer_group"}:${reset.subject}`}>audit entries</Link>
          </>
        }
      />
      <ResetProgressClient initial={reset} canUndo={can(actor, "operate")} />
    </>
  );
}
