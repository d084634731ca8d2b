import { pgTable, text, timestamp } from "drizzle-orm/pg-core";

/** Process-independent settings of the auth layer (the session-signing secret when none is configured). */
export const authSettings = pgTable("auth_settings", {
  key: text("key").primaryKey(),
  value: text("value").notNull(),
  createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
});
