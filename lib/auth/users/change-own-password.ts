import { isAPIError } from "better-auth/api";
import type { DbOrTx } from "@/db/types";
import { UnauthorizedError, ValidationError } from "@/lib/errors";
import { changePasswordSchema, type ChangePasswordInput } from "@/lib/validation/account";
import { getAuth } from "../better-auth";
import { rateLimitedFrom } from "../retry-after";

/**
 * The signed-in user changes their own password, through Better Auth's change-password:
 * its hooks (password-guard.ts) apply the per-address limit and the account's back-off,
 * record failures, end the user's other sessions and audit the change. The session in
 * `headers` stays valid, so the page that asked renders signed in.
 */
export async function changeOwnPassword({ db, headers, input }: { db: DbOrTx; headers: Headers; input: ChangePasswordInput }): Promise<void> {
  const parsed = changePasswordSchema.parse(input);
  const auth = await getAuth(db);
  try {
    await auth.api.changePassword({
      body: { currentPassword: parsed.currentPassword, newPassword: parsed.newPassword, revokeOtherSessions: false },
      headers,
    });
  } catch (err) {
    if (!isAPIError(err)) throw err;
    if (err.statusCode === 429) throw rateLimitedFrom(err);
    if (err.statusCode === 401) throw new UnauthorizedError("sign in to change your password");
    if (err.body?.code === "INVALID_PASSWORD") throw new ValidationError("the current password is wrong", "currentPassword");
    if (err.statusCode < 500) throw new ValidationError(err.message, "newPassword");
    throw err;
  }
}
