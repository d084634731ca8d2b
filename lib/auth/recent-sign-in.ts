import { getDb } from "@/db/client";
import type { DbOrTx } from "@/db/types";
import { ReauthenticationRequiredError } from "@/lib/errors";
import type { Actor } from "./actor";
import { authEnv } from "./auth-env";
import { limitDestructive } from "./rate-limit";

/**
 * Destructive operations (bulk reset, TTL edits, token creation, user changes)
 * need a console sign-in younger than WEIR_REAUTH_AFTER_SECONDS (15 min by
 * default). Call it in every such server action right after requireConsoleActor:
 *
 *   const actor = await requireConsoleActor("operate");
 *   requireRecentSignIn(actor); // throws ReauthenticationRequiredError (code "reauth_required")
 *
 * The UI answers "reauth_required" by sending the user to /sign-in?reauth=1&next=<page>.
 * API tokens never sign in: the token is the credential, so they pass.
 */
export function requireRecentSignIn(actor: Actor, now = new Date()): void {
  if (actor.via !== "session") return;
  const maxAge = authEnv().freshSeconds;
  const signedIn = actor.signedInAt?.getTime() ?? 0;
  if (now.getTime() - signedIn > maxAge * 1000) throw new ReauthenticationRequiredError(Math.round(maxAge / 60));
}

/**
 * Everything a destructive operation needs before it runs: a recent sign-in
 * and room in the actor's rate limit (RateLimitedError, code "rate_limited").
 * In-process actors (system, CLI) came through no door an attacker can use,
 * so they are not limited.
 */
export async function guardDestructive(actor: Actor, db?: DbOrTx): Promise<void> {
  requireRecentSignIn(actor);
  if (actor.via) await limitDestructive(db ?? (await getDb()), actor);
}
