import { readFile } from "node:fs/promises";
import path from "node:path";
import type pg from "pg";
import { migrationsFolder } from "@/db/migrate";

/** The database a command needs has no weir schema, or an older one. */
export class NotMigratedError extends Error {
  constructor(
    readonly database: string,
    readonly pending?: { applied: number; expected: number },
  ) {
    super(`the database at ${database} is not migrated`);
  }
}

/** The database named in the URL does not exist on the server. */
export class MissingDatabaseError extends Error {
  constructor(readonly database: string) {
    super(`the database at ${database} does not exist`);
  }
}

// undefined_table, undefined_column, undefined_function, invalid_schema_name: the schema is missing or older.
const SCHEMA_MISSING = new Set(["42P01", "42703", "42883", "3F000"]);
const DATABASE_MISSING = "3D000";

/** The SQLSTATE of a driver error, looking inside drizzle's wrapper ("Failed query: ..."). */
export function sqlState(err: unknown, depth = 0): string | undefined {
  if (!(err instanceof Error) || depth > 3) return undefined;
  const code = (err as { code?: unknown }).code;
  if (typeof code === "string" && /^[0-9A-Z]{5}$/.test(code)) return code;
  return sqlState(err.cause, depth + 1);
}

export const schemaMissing = (err: unknown) => SCHEMA_MISSING.has(sqlState(err) ?? "");
export const databaseMissing = (err: unknown) => sqlState(err) === DATABASE_MISSING;

/** "host:port/dbname" of a PostgreSQL URL: no user, no password, no options. */
export function databaseLabel(url: string): string {
  try {
    const parsed = new URL(url);
    return `${parsed.hostname || "localhost"}:${parsed.port || "5432"}${parsed.pathname || "/"}`;
  } catch {
    return "the configured URL";
  }
}

async function journalTimes(): Promise<number[]> {
  const journal = JSON.parse(await readFile(path.join(migrationsFolder, "meta/_journal.json"), "utf8")) as { entries: { when: number }[] };
  return journal.entries.map((entry) => entry.when);
}

export async function migrationCount(): Promise<number> {
  return (await journalTimes()).length;
}

/**
 * Refuses to run a command on a database that `weir migrate` has not brought up to
 * this version: pending migrations are found by the migrator's own rule (journal
 * entries newer than the last one applied).
 */
export async function assertMigrated(pool: pg.Pool, database: string): Promise<void> {
  const times = await journalTimes();
  let last: number | null;
  try {
    const result = await pool.query<{ last: string | null }>("select max(created_at)::text as last from drizzle.__drizzle_migrations");
    last = result.rows[0]?.last == null ? null : Number(result.rows[0].last);
  } catch (err) {
    if (databaseMissing(err)) throw new MissingDatabaseError(database);
    if (schemaMissing(err)) throw new NotMigratedError(database);
    throw err;
  }
  if (last === null) throw new NotMigratedError(database);
  const pending = times.filter((when) => when > last).length;
  if (pending > 0) throw new NotMigratedError(database, { applied: times.length - pending, expected: times.length });
}
