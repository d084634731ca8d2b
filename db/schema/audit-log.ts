import { bigserial, index, integer, jsonb, pgTable, text, timestamp } from "drizzle-orm/pg-core";

/** Every operator mutation: who, when, what, how many and why. Append-only. */
export const auditLog = pgTable(
  "audit_log",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    at: timestamp("at", { withTimezone: true }).notNull().defaultNow(),
    actor: text("actor").notNull(),
    actorRole: text("actor_role").notNull(),
    action: text("action").notNull(),
    target: text("target").notNull(),
    affected: integer("affected").notNull().default(0),
    reason: text("reason"),
    details: jsonb("details").notNull().default({}),
  },
  (t) => [index("audit_log_by_at").on(t.at.desc()), index("audit_log_by_action").on(t.action, t.at.desc())],
);
