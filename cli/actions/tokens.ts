import { createApiToken } from "@/lib/auth/tokens/create-token";
import { listApiTokensVerb } from "@/lib/auth/tokens/list-tokens";
import { revokeApiTokenVerb } from "@/lib/auth/tokens/revoke-token";
import type { TokenBody } from "@/lib/auth/tokens/token-actor";
import { cliActor, withStore } from "../store";
import type { CreateTokenOptions, GlobalOptions, RevokeTokenOptions } from "../option-types";

const scopesOf = (d: TokenBody) => `services [${d.services.join(", ")}], groups [${d.consumerGroups.join(", ")}], scopes [${d.idempotencyScopes.join(", ")}]`;

/** A token's own limits, or the defaults it falls under. */
const limitsOf = (d: Pick<TokenBody, "maxInFlight" | "requestsPerSecond">) =>
  `in flight ${d.maxInFlight ?? "default share"}, requests/s ${d.requestsPerSecond ?? "unlimited"} (per node)`;

/** Revoked, expired (named as such: the API refuses it with token_expired), or active until when. */
function statusOf(t: TokenBody): string {
  if (t.revokedAt) return `revoked ${t.revokedAt}`;
  if (t.expiresAt && Date.parse(t.expiresAt) <= Date.now()) return `expired ${t.expiresAt}`;
  return t.expiresAt ? `active, expires ${t.expiresAt}` : "active";
}

export async function runListTokens(options: { all?: boolean; json?: boolean }, globals: GlobalOptions): Promise<void> {
  await withStore({ databaseUrl: globals.databaseUrl }, async ({ db }) => {
    for (const t of await listApiTokensVerb({ db, actor: cliActor(), includeRevoked: options.all })) {
      if (options.json) console.log(JSON.stringify(t));
      else console.log(`${t.id}\t${t.prefix}…\t${t.role}\t"${t.name}"\t${scopesOf(t)}\t${limitsOf(t)}\t${statusOf(t)}`);
    }
  });
}

export async function runCreateToken(options: CreateTokenOptions, globals: GlobalOptions): Promise<void> {
  const every = options.all ? ["*"] : undefined;
  const { databaseUrl } = globals;
  await withStore({ databaseUrl }, async ({ db }) => {
    const created = await createApiToken({
      db,
      actor: cliActor(options.actor),
      input: {
        name: options.name,
        role: options.role,
        services: every ?? options.service ?? [],
        consumerGroups: every ?? options.group ?? [],
        idempotencyScopes: every ?? options.scope ?? [],
        expiresInDays: options.expiresInDays,
        maxInFlight: options.maxInFlight,
        requestsPerSecond: options.requestsPerSecond,
        reason: options.reason,
      },
    });
    if (options.json) return console.log(JSON.stringify(created));
    const d = created.details;
    console.error(`created ${d.role} token ${d.id} "${d.name}": ${scopesOf(d)}, ${limitsOf(d)}${d.expiresAt ? `, expires ${d.expiresAt}` : ""}`);
    console.error("the secret below is shown once; store it now");
    console.log(created.token);
  });
}

/** The verb's schema refuses a blank reason, as it does for the API and the console. */
export async function runRevokeToken(id: string, options: RevokeTokenOptions, globals: GlobalOptions): Promise<void> {
  await withStore({ databaseUrl: globals.databaseUrl }, async ({ db }) => {
    const revoked = await revokeApiTokenVerb({ db, actor: cliActor(options.actor), input: { id, reason: options.reason } });
    console.error(`revoked token ${revoked.id} "${revoked.name}": refused within 10 s on every node`);
  });
}
