import { openStore } from "@/db/client";
import { storeConfigFromEnv } from "@/db/config";

/** Applies pending migrations to DATABASE_URL (or the embedded store) and exits; weir also migrates at start. */
async function main(): Promise<void> {
  const store = await openStore(storeConfigFromEnv(), { migrate: true });
  await store.close();
  console.log(`[weir] ${store.kind === "pglite" ? "embedded store" : "database"} migrated`);
}

main().catch((err: Error) => {
  console.error(`[weir] migration failed: ${err.message}`);
  process.exit(1);
});
