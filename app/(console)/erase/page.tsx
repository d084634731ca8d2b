import type { Metadata } from "next";
import { PageHeader } from "@/components/ui/page-header";
import { requireConsoleActor } from "@/lib/auth/console-actor";
import { can } from "@/lib/auth/authorize";
import { EraseClient } from "./erase-client";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Erase" };

export default async function ErasePage() {
  const actor = await requireConsoleActor("read");
  return (
    <>
      <PageHeader
        title="Erase keys"
        description="Remove one key, or every key of a service, consumer group or idempotency scope, everywhere weir keeps it: state, payload history, reset copies, stored responses, journal entries. Previewed, typed-confirmed, audited (the audit keeps the key's SHA-256, never the key or its data). It cannot be undone."
      />
      {can(actor, "operate") ? <EraseClient /> : <p className="panel muted">Erasing needs the operator role.</p>}
    </>
  );
}
