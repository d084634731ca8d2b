import { z } from "zod";
import { cursorParam, instantSchema, optionalText } from "./console-common";

export const AUDIT_PAGE_SIZE = 50;
/** Rows in one CSV export; narrow the filter for more. */
export const AUDIT_EXPORT_MAX_ROWS = 100_000;

export const auditFilterSchema = z
  .object({
    action: optionalText(100),
    actor: optionalText(320),
    /** Matches targets that start with it, e.g. "service:" or "service:adapter-2". */
    target: optionalText(300),
    from: instantSchema,
    to: instantSchema,
    before: cursorParam,
    after: cursorParam,
  })
  .refine((f) => !f.from || !f.to || f.from < f.to, { message: "must be after the start", path: ["to"] });
export type AuditFilter = z.output<typeof auditFilterSchema>;
