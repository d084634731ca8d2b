import { assertLocal, withAdmin } from "../../test/pg-admin";
import { E2E_DATABASE, e2eDatabaseUrl } from "./database";
import { seedE2eAuth } from "./seed-auth";

/** Runs before the e2e server starts: a fresh local database per run, migrated and seeded with the e2e users and token. */
assertLocal(e2eDatabaseUrl);
await withAdmin(async (admin) => {
  await admin.query(`drop database if exists "${E2E_DATABASE}" with (force)`);
  await admin.query(`create database "${E2E_DATABASE}"`);
});
await seedE2eAuth(e2eDatabaseUrl);
console.log(`[e2e] fresh database ${E2E_DATABASE}, with the e2e users and API token`);
