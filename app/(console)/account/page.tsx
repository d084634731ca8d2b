import type { Metadata } from "next";
import { PageHeader } from "@/components/ui/page-header";
import { requireConsoleActor } from "@/lib/auth/console-actor";
import { ChangePasswordForm } from "./change-password-form";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Account" };

export default async function AccountPage() {
  const actor = await requireConsoleActor("read");
  return (
    <>
      <PageHeader
        title="Account"
        description={
          <>
            Signed in as <strong>{actor.id}</strong> ({actor.role}). Roles are given by an admin.
          </>
        }
      />
      <ChangePasswordForm />
    </>
  );
}
