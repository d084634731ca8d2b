import type { Metadata } from "next";
import { PageHeader } from "@/components/ui/page-header";
import { requireConsoleActor } from "@/lib/auth/console-actor";
import { loadConsoleUsers } from "@/lib/auth/users/list-users";
import { UsersClient } from "./users-client";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Users" };

export default async function UsersPage() {
  const actor = await requireConsoleActor("read");
  const users = await loadConsoleUsers(actor);
  return (
    <>
      <PageHeader
        title="Users"
        description={
          <>
            Who may sign in to the console, and with which role: viewers read, operators also change TTLs and release keys, admins also reset,
            manage tokens and users. A role change, a disable or a password reset ends that user&apos;s sessions. A disabled user cannot sign in
            until their password is reset; API tokens they created keep working until revoked.
          </>
        }
      />
      {users ? <UsersClient users={users} self={actor.id} /> : <p className="panel muted">Only admins can see and manage users.</p>}
    </>
  );
}
