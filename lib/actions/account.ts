"use server";
/**
 * The signed-in user's own account. Every export is a public endpoint:
 * requireConsoleActor checks the session and the Origin; the current password
 * is the re-authentication, held to the sign-in limits (password-guard.ts).
 */
import { getDb } from "@/db/client";
import { requireConsoleActor } from "@/lib/auth/console-actor";
import { requestHeaders } from "@/lib/auth/request-headers";
import { changeOwnPassword } from "@/lib/auth/users/change-own-password";
import { runAction, type ActionResult } from "@/lib/console/action-result";
import type { ChangePasswordInput } from "@/lib/validation/account";

/** Changes the password and ends every other session; this browser's session carries on. */
export async function changePasswordAction(input: ChangePasswordInput): Promise<ActionResult<null>> {
  return runAction(async () => {
    await requireConsoleActor("read");
    await changeOwnPassword({ db: await getDb(), headers: await requestHeaders(), input });
    return null;
  });
}
