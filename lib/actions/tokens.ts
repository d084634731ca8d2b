"use server";
/**
 * API token management from the console. Every export is a public endpoint:
 * each checks the session and role itself (requireConsoleActor also checks the
 * Origin of server actions); creation and revocation also need a recent
 * sign-in and are rate limited (inside their verbs).
 */
import { getDb } from "@/db/client";
import { requireConsoleActor } from "@/lib/auth/console-actor";
import { createApiToken } from "@/lib/auth/tokens/create-token";
import { revokeApiTokenVerb } from "@/lib/auth/tokens/revoke-token";
import type { TokenBody } from "@/lib/auth/tokens/token-actor";
import { runAction, type ActionResult } from "@/lib/console/action-result";
import type { CreateTokenInput, RevokeTokenInput } from "@/lib/validation/tokens";

export async function createToken(input: CreateTokenInput): Promise<ActionResult<{ token: string; details: TokenBody }>> {
  return runAction(async () => {
    const actor = await requireConsoleActor("admin");
    return createApiToken({ db: await getDb(), actor, input });
  });
}

export async function revokeToken(input: RevokeTokenInput): Promise<ActionResult<TokenBody>> {
  return runAction(async () => {
    const actor = await requireConsoleActor("admin");
    return revokeApiTokenVerb({ db: await getDb(), actor, input });
  });
}
