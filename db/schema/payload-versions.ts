import { bigint, index, pgTable, primaryKey, text, timestamp } from "drizzle-orm/pg-core";
import { digest } from "./last-seen";

/** Accepted payload versions kept for diffs, bounded per key by services.history_depth. */
export const payloadVersions = pgTable(
  "payload_versions",
  {
    serviceId: text("service_id").notNull(),
    messageId: text("message_id").notNull(),
    version: bigint("version", { mode: "number" }).notNull(),
    hash: digest("hash").notNull(),
    /** The JSON text as received: exact numbers, original field order, any escape. */
    payload: text("payload").notNull(),
    recordedAt: timestamp("recorded_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ name: "payload_versions_pkey", columns: [t.serviceId, t.messageId, t.version] }),
    // The retention job's batches: a service's versions past its payload age limit, oldest first.
    index("payload_versions_by_recorded_at").on(t.serviceId, t.recordedAt),
  ],
);
