import { randomBytes } from "node:crypto";
import pg from "pg";
import type { TestProject } from "vitest/node";
import { migratePostgres } from "@/db/migrate";
import { databaseUrl, withAdmin } from "./pg-admin";

declare module "vitest" {
  export interface ProvidedContext {
    templateDatabase: string;
    runPrefix: string;
  }
}

/**
 * Migrates one template database per run; each test file clones it
 * (CREATE DATABASE ... TEMPLATE), so files never share or wipe state, and
 * runs started side by side never touch each other's databases.
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const runPrefix = `weir_t_${randomBytes(3).toString("hex")}`;
  const template = `${runPrefix}_template`;
  await withAdmin((admin) => admin.query(`create database "${template}"`));
  const pool = new pg.Pool({ connectionString: databaseUrl(template), max: 1 });
  try {
    await migratePostgres(pool);
  } finally {
    await pool.end();
  }
  project.provide("templateDatabase", template);
  project.provide("runPrefix", runPrefix);
  return async () => {
    await withAdmin(async (admin) => {
      const mine = await admin.query("select datname from pg_database where datname like $1", [`${runPrefix}%`]);
      for (const { datname } of mine.rows as { datname: string }[]) {
        await admin.query(`drop database if exists "${datname}" with (force)`);
      }
    });
  };
}
