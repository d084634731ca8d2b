import path from "node:path";

/** Connection settings read once from the environment; see README "Configuration". */
export interface StoreConfig {
  databaseUrl: string | undefined;
  dataDir: string;
  poolMax: number;
  connectTimeoutMs: number;
  statementTimeoutMs: number;
}

function intFromEnv(name: string, fallback: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw === "") return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value <= 0) throw new Error(`${name} must be a positive integer, got "${raw}"`);
  return value;
}

export function storeConfigFromEnv(): StoreConfig {
  return {
    databaseUrl: process.env.DATABASE_URL || undefined,
    dataDir: path.resolve(/*turbopackIgnore: true*/ process.env.WEIR_DATA_DIR ?? ".weir-data/pglite"),
    poolMax: intFromEnv("WEIR_PG_POOL_MAX", 20),
    connectTimeoutMs: intFromEnv("WEIR_PG_CONNECT_TIMEOUT_MS", 2000),
    statementTimeoutMs: intFromEnv("WEIR_PG_STATEMENT_TIMEOUT_MS", 5000),
  };
}
