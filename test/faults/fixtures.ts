import { drizzle } from "drizzle-orm/node-postgres";
import pg from "pg";
import type { Store } from "@/db/client";
import { createPool } from "@/db/client";
import { storeConfigFromEnv, type StoreConfig } from "@/db/config";
import * as schema from "@/db/schema";
import { SYSTEM_ACTOR } from "@/lib/auth/actor";
import { createApiToken } from "@/lib/auth/tokens/create-token";
import { saveService } from "@/lib/services/save-service";
import type { ServiceSettingsInput } from "@/lib/validation/services";

/** A store over weir's own pool settings (timeouts included), for in-process fault tests. */
export function openStore(url: string, overrides: Partial<StoreConfig> = {}): Store & { pool: pg.Pool } {
  const pool = createPool({ ...storeConfigFromEnv(), ...overrides }, url);
  return {
    db: drizzle({ client: pool, schema }),
    kind: "postgres",
    pool,
    ping: async () => void (await pool.query("select 1")),
    close: () => pool.end(),
  };
}

/** A plain pool (no timeouts) for set-up and for reading what the database holds. */
export function adminDb(url: string) {
  const pool = new pg.Pool({ connectionString: url, max: 4 });
  return { db: drizzle({ client: pool, schema }), pool, close: () => pool.end() };
}

/** An all-scopes admin API token, made by the same verb the console uses. */
export async function createAdminToken(db: Store["db"], name = "fault tests"): Promise<string> {
  const { token } = await createApiToken({
    db,
    actor: SYSTEM_ACTOR,
    input: { name, role: "admin", services: ["*"], consumerGroups: ["*"], idempotencyScopes: ["*"] },
  });
  return token;
}

export const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

export async function registerService(db: Store["db"], id: string, input: ServiceSettingsInput = {}): Promise<string> {
  await saveService({ db, actor: SYSTEM_ACTOR, id, input });
  return id;
}

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Waits until `probe` is true, polling every `everyMs`; returns how long it took, or throws after `timeoutMs`. */
export async function waitFor(probe: () => Promise<boolean>, timeoutMs: number, everyMs = 50): Promise<number> {
  const started = Date.now();
  for (;;) {
    if (await probe().catch(() => false)) return Date.now() - started;
    if (Date.now() - started > timeoutMs) throw new Error(`condition not met within ${timeoutMs} ms`);
    await sleep(everyMs);
  }
}

export function percentile(values: number[], p: number): number {
  if (values.length === 0) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}
