import os from "node:os";
import { openStore, type Store } from "@/db/client";
import { storeConfigFromEnv } from "@/db/config";
import type { Actor } from "@/lib/auth/actor";

export interface StoreOptions {
  databaseUrl?: string;
  /** Apply pending migrations first (default: only for the embedded store, which has no other way to be migrated). */
  migrate?: boolean;
}

/** The store a command works on: --database-url, else DATABASE_URL, else the embedded PGlite folder. */
export async function openCliStore(options: StoreOptions = {}): Promise<Store> {
  const config = storeConfigFromEnv();
  if (options.databaseUrl) config.databaseUrl = options.databaseUrl;
  return openStore(config, { migrate: options.migrate ?? !config.databaseUrl });
}

export async function withStore<T>(options: StoreOptions, run: (store: Store) => Promise<T>): Promise<T> {
  const store = await openCliStore(options);
  try {
    return await run(store);
  } finally {
    await store.close().catch(() => undefined);
  }
}

/**
 * Who the audit log names for a CLI operation: `cli:<name>`, from --actor or
 * the operating-system user. The CLI runs with database access, which is
 * already more than any role, so it acts with the admin role.
 */
export function cliActor(name?: string): Actor {
  const who = name?.trim() || safeUsername();
  return { id: `cli:${who}`, role: "admin" };
}

function safeUsername(): string {
  try {
    return `${os.userInfo().username}@${os.hostname()}`;
  } catch {
    return "unknown";
  }
}

/** The database a command talks to, without its password. */
export function describeStore(store: Store, databaseUrl = storeConfigFromEnv().databaseUrl): string {
  if (store.kind === "pglite") return `embedded store ${storeConfigFromEnv().dataDir}`;
  if (!databaseUrl) return "PostgreSQL";
  try {
    const url = new URL(databaseUrl);
    url.password = "";
    return `PostgreSQL ${url.host}${url.pathname}`;
  } catch {
    return "PostgreSQL";
  }
}
