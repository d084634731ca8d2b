import { bigint, customType, index, integer, pgTable, primaryKey, text, timestamp } from "drizzle-orm/pg-core";

/** SHA-256 digests are stored as 32 raw bytes: half the size of hex, same comparisons. */
export const digest = customType<{ data: Buffer; driverData: Buffer }>({
  dataType: () => "bytea",
});

/**
 * Last-seen state per (service_id, message_id). No foreign key to services on
 * purpose: every insert would take a share lock on the one service row.
 */
export const lastSeen = pgTable(
  "last_seen",
  {
    serviceId: text("service_id").notNull(),
    messageId: text("message_id").notNull(),
    hash: digest("hash").notNull(),
    /** The hash the latest change replaced, so that change can be reverted; null for version 1 and after a revert. */
    previousHash: digest("previous_hash"),
    /** The service's hash settings version the hash was made under (service_hash_settings). */
    hashVersion: integer("hash_version").notNull().default(1),
    previousHashVersion: integer("previous_hash_version"),
    previousLastChanged: timestamp("previous_last_changed", { withTimezone: true }),
    version: bigint("version", { mode: "number" }).notNull(),
    /** The caller's ref (job id, request id, note) given with the check that stored this version. */
    ref: text("ref"),
    /** The ref of the version the latest change replaced, restored by a revert. */
    previousRef: text("previous_ref"),
    firstSeen: timestamp("first_seen", { withTimezone: true }).notNull().defaultNow(),
    lastChanged: timestamp("last_changed", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ name: "last_seen_pkey", columns: [t.serviceId, t.messageId] }),
    index("last_seen_by_last_changed").on(t.serviceId, t.lastChanged.desc(), t.messageId),
    // The key browser's "min version" filter: without it a rare version scans every key of the service.
    index("last_seen_by_version").on(t.serviceId, t.version),
  ],
);

