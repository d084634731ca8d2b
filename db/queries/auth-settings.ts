import { eq } from "drizzle-orm";
import { authSettings } from "../schema";
import type { DbOrTx } from "../types";

/** The stored value of `key`, creating it with `initial()` when absent; every node ends up with the same value. */
export async function getOrCreateSetting(db: DbOrTx, key: string, initial: () => string): Promise<string> {
  await db.insert(authSettings).values({ key, value: initial() }).onConflictDoNothing({ target: authSettings.key });
  const [row] = await db.select({ value: authSettings.value }).from(authSettings).where(eq(authSettings.key, key));
  return row!.value;
}
