"use server";
/**
 * Console users, from the console. Every export is a public endpoint: each checks the session,
 * the Origin and the admin role itself; the verbs need a recent sign-in, are rate limited and
 * audited.
 */
import { getDb } from "@/db/client";
import { requireConsoleActor } from "@/lib/auth/console-actor";
import { createUser, type CreatedUser } from "@/lib/auth/users/create-user";
import { disableUser } from "@/lib/auth/users/disable-user";
import { resetUserPassword } from "@/lib/auth/users/set-password";
import { changeUserRole } from "@/lib/auth/users/set-user-role";
import { runAction, type ActionResult } from "@/lib/console/action-result";
import type { CreateUserInput, DisableUserInput, ResetPasswordInput } from "@/lib/validation/tokens";

export async function createUserAction(input: CreateUserInput): Promise<ActionResult<CreatedUser>> {
  return runAction(async () => createUser({ db: await getDb(), actor: await requireConsoleActor("admin"), input }));
}

export async function changeUserRoleAction(userId: string, input: { role: string; reason?: string }): Promise<ActionResult<{ email: string; role: string }>> {
  return runAction(async () => changeUserRole({ db: await getDb(), actor: await requireConsoleActor("admin"), userId: String(userId), input }));
}

export async function disableUserAction(userId: string, input: DisableUserInput): Promise<ActionResult<{ email: string }>> {
  return runAction(async () => disableUser({ db: await getDb(), actor: await requireConsoleActor("admin"), userId: String(userId), input }));
}

/** The console always generates the new password (shown once); the API may take one. */
export async function resetUserPasswordAction(userId: string, input: Pick<ResetPasswordInput, "reason">): Promise<ActionResult<{ email: string; password?: string }>> {
  return runAction(async () => resetUserPassword({ db: await getDb(), actor: await requireConsoleActor("admin"), userId: String(userId), input: { reason: input?.reason } }));
}
