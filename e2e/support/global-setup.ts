import { assertLocal } from "../../test/pg-admin";
import { e2eDatabaseUrl } from "./database";

/** The suite refuses to run against anything but a local PostgreSQL. */
export default async function globalSetup(): Promise<void> {
  assertLocal(e2eDatabaseUrl);
}
