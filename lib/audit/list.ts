import { z } from "zod";
import { auditActions, listAudit, type AuditQuery, type AuditRow } from "@/db/queries/console-audit";
import type { DbOrTx } from "@/db/types";
import { decodeCursor, encodeCursor } from "@/lib/views/cursor";
import type { SearchParams } from "@/lib/validation/console-common";
import { AUDIT_PAGE_SIZE, auditFilterSchema, type AuditFilter } from "@/lib/validation/console-audit";

export interface AuditEntryView extends Omit<AuditRow, "at" | "details"> {
  at: string;
  /** Details as JSON text: shown as text, never interpreted. */
  details: string;
}

export interface AuditPage {
  filters: AuditFilter | null;
  fieldErrors: Record<string, string[]>;
  actions: string[];
  entries: AuditEntryView[];
  nextCursor: string | null;
}

export function toAuditQuery(filter: AuditFilter): AuditQuery {
  const before = decodeCursor(filter.before, 1)?.[0];
  return {
    action: filter.action,
    actor: filter.actor,
    targetPrefix: filter.target,
    from: filter.from,
    to: filter.to,
    beforeId: before && /^\d{1,15}$/.test(before) ? Number(before) : undefined,
  };
}

/** One page of the audit log, newest first, filtered by the URL's parameters. */
export async function loadAuditPage(db: DbOrTx, params: SearchParams, pageSize = AUDIT_PAGE_SIZE): Promise<AuditPage> {
  const actions = await auditActions(db);
  const parsed = auditFilterSchema.safeParse(params);
  if (!parsed.success) {
    const fieldErrors = z.flattenError(parsed.error).fieldErrors as Record<string, string[]>;
    return { filters: null, fieldErrors, actions, entries: [], nextCursor: null };
  }
  const rows = await listAudit(db, toAuditQuery(parsed.data), pageSize + 1);
  const page = rows.slice(0, pageSize);
  const last = page.at(-1);
  return {
    filters: parsed.data,
    fieldErrors: {},
    actions,
    entries: page.map((row) => ({ ...row, at: row.at.toISOString(), details: JSON.stringify(row.details) })),
    nextCursor: rows.length > pageSize && last ? encodeCursor([String(last.id)]) : null,
  };
}
