import path from "node:path";
import { setting } from "@/lib/config";

/** Connection settings from the environment (lib/config; docs/configuration.md). */
export interface StoreConfig {
  databaseUrl: string | undefined;
  /** Citus workers the hot path connects to (WEIR_CITUS_ROUTE_URLS); empty: everything on `databaseUrl`. */
  routeUrls: readonly string[];
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

export function storeConfigFromEnv(): StoreConfig {
  return {
    databaseUrl: setting("DATABASE_URL"),
    routeUrls: setting("WEIR_CITUS_ROUTE_URLS"),
    dataDir: path.resolve(/*turbopackIgnore: true*/ setting("WEIR_DATA_DIR")),
    poolMax: setting("WEIR_PG_POOL_MAX"),
    connectTimeoutMs: setting("WEIR_PG_CONNECT_TIMEOUT_MS"),
    statementTimeoutMs: setting("WEIR_PG_STATEMENT_TIMEOUT_MS"),
    sendTimeouts: setting("WEIR_PG_SEND_TIMEOUTS"),
  };
}
