import { readFile } from "node:fs/promises";
import path from "node:path";
import { migrationsFolder } from "@/db/migrate";
import type { GlobalOptions } from "../main";
import { describeStore, withStore } from "../store";

async function migrationCount(): Promise<number> {
  const journal = JSON.parse(await readFile(path.join(migrationsFolder, "meta/_journal.json"), "utf8")) as { entries: unknown[] };
  return journal.entries.length;
}

export async function runMigrate({ databaseUrl }: GlobalOptions): Promise<void> {
  await withStore({ databaseUrl, migrate: true }, async (store) => {
    console.log(`${describeStore(store, databaseUrl ?? process.env.DATABASE_URL)}: schema up to date (${await migrationCount()} migrations)`);
  });
}
