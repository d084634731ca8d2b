import type { GlobalOptions } from "../option-types";
import { migrationCount } from "../schema-check";
import { describeStore, withStore } from "../store";
import { setting } from "@/lib/config";

export async function runMigrate({ databaseUrl }: GlobalOptions): Promise<void> {
  await withStore({ databaseUrl, migrate: true }, async (store) => {
    console.log(`${describeStore(store, databaseUrl ?? setting("DATABASE_URL"))}: schema up to date (${await migrationCount()} migrations)`);
  });
}
