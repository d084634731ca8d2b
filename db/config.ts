import path from "node:path";

/** Connection settings read once from the environment; see README "Configuration". */
export interface StoreConfig {
  databaseUrl: string | undefined;
  dataDir: string;
  poolMax: number;
  connectTimeoutMs: number;
  statementTimeoutMs: number;
  /**
   * Whether weir sends statement_timeout and idle_in_transaction_session_timeout when it connects.
   * PgBouncer refuses both ("unsupported startup parameter"): behind it they are set on the role.
   */
  sendTimeouts: boolean;
}

function intFromEnv(name: string, fallback: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw === "") return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value <= 0) throw new Error(`${name} must be a positive integer, got "${raw}"`);
  return value;
}

function flagFromEnv(name: string, fallback: boolean): boolean {
  const raw = process.env[name];
  if (raw === undefined || raw === "") return fallback;
  if (raw !== "0" && raw !== "1") throw new Error(`${name} must be 0 or 1, got "${raw}"`);
  return raw === "1";
}

export function storeConfigFromEnv(): StoreConfig {
  return {
    databaseUrl: process.env.DATABASE_URL || undefined,
    dataDir: path.resolve(/*turbopackIgnore: true*/ process.env.WEIR_DATA_DIR ?? ".weir-data/pglite"),
    poolMax: intFromEnv("WEIR_PG_POOL_MAX", 20),
    connectTimeoutMs: intFromEnv("WEIR_PG_CONNECT_TIMEOUT_MS", 2000),
    statementTimeoutMs: intFromEnv("WEIR_PG_STATEMENT_TIMEOUT_MS", 5000),
    sendTimeouts: flagFromEnv("WEIR_PG_SEND_TIMEOUTS", true),
  };
}
