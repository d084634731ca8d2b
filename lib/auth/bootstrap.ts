import { randomBytes } from "node:crypto";
import { listApiTokens } from "@/db/queries/auth-tokens";
import { countAdmins, findUserByEmail } from "@/db/queries/auth-users";
import type { DbOrTx } from "@/db/types";
import { isStoreUnavailable } from "@/db/unavailable";
import { SYSTEM_ACTOR } from "./actor";
import { authEnv } from "./auth-env";
import { getAuth } from "./better-auth";
import { DEMO_ADMIN_EMAIL } from "./demo-constants";
import { createApiToken } from "./tokens/create-token";
import { revokeApiTokenVerb } from "./tokens/revoke-token";
import { createUser } from "./users/create-user";
import { setUserPassword } from "./users/set-password";
import { setting } from "@/lib/config";

export { DEMO_ADMIN_EMAIL };
const DEMO_TOKEN_NAME = "demo traffic";

// The demo admin's password lives only in this process (new on every start); /api/auth/demo reads it.
const HOLDER = Symbol.for("weir.demo-admin");
type DemoHolder = { password?: string };
const demo = ((globalThis as Record<symbol, DemoHolder>)[HOLDER] ??= {});

export function demoAdminPassword(): string | undefined {
  return demo.password;
}

/** WEIR_ADMIN_EMAIL / WEIR_ADMIN_PASSWORD create the first admin once; an existing user is never changed. */
async function ensureAdminFromEnv(db: DbOrTx): Promise<void> {
  const email = setting("WEIR_ADMIN_EMAIL")?.trim().toLowerCase();
  const password = setting("WEIR_ADMIN_PASSWORD");
  if (!email || !password) {
    if ((await countAdmins(db)) === 0 && !authEnv().demo) {
      console.warn("[weir] no console admin yet: set WEIR_ADMIN_EMAIL and WEIR_ADMIN_PASSWORD, or run `npm run create-admin`");
    }
    return;
  }
  if (await findUserByEmail(db, email)) return;
  await createUser({ db, actor: SYSTEM_ACTOR, input: { email, password, role: "admin", name: "admin" } });
  console.log(`[weir] created the first admin ${email} from WEIR_ADMIN_EMAIL`);
}

/** The demo admin (fresh password each start) and an all-scopes token for the demo traffic, replacing older ones. */
async function prepareDemo(db: DbOrTx): Promise<string> {
  const password = randomBytes(24).toString("base64url");
  if (await findUserByEmail(db, DEMO_ADMIN_EMAIL)) {
    await setUserPassword({ db, actor: SYSTEM_ACTOR, email: DEMO_ADMIN_EMAIL, password });
  } else {
    await createUser({ db, actor: SYSTEM_ACTOR, input: { email: DEMO_ADMIN_EMAIL, password, role: "admin", name: "Demo admin" } });
  }
  demo.password = password;
  for (const old of await listApiTokens(db)) {
    if (old.name === DEMO_TOKEN_NAME) await revokeApiTokenVerb({ db, actor: SYSTEM_ACTOR, input: { id: old.id, reason: "demo restarted" } });
  }
  const created = await createApiToken({ db, actor: SYSTEM_ACTOR, input: { name: DEMO_TOKEN_NAME, role: "admin", services: ["*"], consumerGroups: ["*"], idempotencyScopes: ["*"] } });
  return created.token;
}

/**
 * Runs once at start, after the store is open: the signing secret, the first
 * admin from the environment, and in demo mode the demo admin and the token the
 * demo traffic uses. Returns that token.
 */
export async function bootstrapAuth(db: DbOrTx): Promise<{ demoToken?: string }> {
  await getAuth(db);
  await ensureAdminFromEnv(db);
  return authEnv().demo ? { demoToken: await prepareDemo(db) } : {};
}

/**
 * When the store was unreachable at start: tries again every `everyMs` until it answers, then
 * bootstraps (the first admin), so sign-in works without a restart. Resolves true once done;
 * false if it failed for another reason (logged), as a bad WEIR_ADMIN_PASSWORD would at start.
 */
export function bootstrapAuthOnceReachable(openDb: () => Promise<DbOrTx>, everyMs = 2000): Promise<boolean> {
  return new Promise((resolve) => {
    const attempt = async () => {
      try {
        await bootstrapAuth(await openDb());
        console.log("[weir] store reachable again: sign-in prepared");
        resolve(true);
      } catch (err) {
        if (isStoreUnavailable(err)) return void setTimeout(attempt, everyMs).unref();
        console.error(`[weir] preparing sign-in failed: ${(err as Error).message}`);
        resolve(false);
      }
    };
    void attempt();
  });
}
