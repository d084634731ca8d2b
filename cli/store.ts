import os from "node:os";
import { openStore, type Store } from "@/db/client";
import { storeConfigFromEnv } from "@/db/config";
import type { Actor } from "@/lib/auth/actor";
import { assertMigrated, databaseLabel, databaseMissing, MissingDatabaseError, NotMigratedError, schemaMissing } from "./schema-check";

export interface StoreOptions {
  databaseUrl?: string;
  /** Apply pending migrations first (default: only for the embedded store, which has no other way to be migrated). */
  migrate?: boolean;
}

/** A store and how errors name it: "host:port/dbname" (never the password) or the embedded folder. */
export type CliStore = Store & { label: string };

/**
 * The store a command works on: --database-url, else DATABASE_URL, else the embedded
 * PGlite folder. A PostgreSQL database must already be migrated (only `weir migrate`
 * changes its schema); a command never reaches its first statement otherwise.
 */
export async function openCliStore(options: StoreOptions = {}): Promise<CliStore> {
  const config = storeConfigFromEnv();
  if (options.databaseUrl) config.databaseUrl = options.databaseUrl;
  const migrate = options.migrate ?? !config.databaseUrl;
  const label = config.databaseUrl ? databaseLabel(config.databaseUrl) : `embedded store ${config.dataDir}`;
  let store: Store;
  try {
    store = await openStore(config, { migrate });
  } catch (err) {
    throw databaseMissing(err) ? new MissingDatabaseError(label) : err;
  }
  if (!migrate && store.pool) {
    try {
      await assertMigrated(store.pool, label);
    } catch (err) {
      await store.close().catch(() => undefined);
      throw err;
    }
  }
  return Object.assign(store, { label });
}

export async function withStore<T>(options: StoreOptions, run: (store: CliStore) => Promise<T>): Promise<T> {
  const store = await openCliStore(options);
  try {
    return await run(store);
  } catch (err) {
    // A schema older than this code (a table or column it needs is missing) is the same story.
    throw schemaMissing(err) ? new NotMigratedError(store.label) : err;
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
