import pg from "pg";
import { drizzle } from "drizzle-orm/node-postgres";
import { migratePostgres } from "@/db/migrate";
import { insertApiToken } from "@/db/queries/auth-tokens";
import * as schema from "@/db/schema";
import { SYSTEM_ACTOR } from "@/lib/auth/actor";
import { TOKEN_PREFIX_LENGTH, hashTokenSecret, newTokenId } from "@/lib/auth/tokens/token-secret";
import { createUser } from "@/lib/auth/users/create-user";
import { E2E_USERS } from "./users";

/**
 * Before the e2e server starts: migrate the fresh database, add the viewer and
 * operator, and register the all-scopes API token the specs' `request` fixture
 * sends (its secret comes from playwright.config.ts through the environment).
 */
export async function seedE2eAuth(url: string): Promise<void> {
  const token = process.env.WEIR_E2E_API_TOKEN;
  if (!token) throw new Error("WEIR_E2E_API_TOKEN is not set (playwright.config.ts sets it)");
  const pool = new pg.Pool({ connectionString: url, max: 2 });
  try {
    await migratePostgres(pool);
    const db = drizzle({ client: pool, schema });
    for (const role of ["viewer", "operator"] as const) {
      await createUser({ db, actor: SYSTEM_ACTOR, input: { ...E2E_USERS[role], role } });
    }
    await insertApiToken(db, {
      id: newTokenId(),
      name: "e2e specs",
      role: "admin",
      tokenHash: hashTokenSecret(token),
      prefix: token.slice(0, TOKEN_PREFIX_LENGTH),
      services: ["*"],
      consumerGroups: ["*"],
      idempotencyScopes: ["*"],
      createdBy: "e2e",
    });
  } finally {
    await pool.end();
  }
}
