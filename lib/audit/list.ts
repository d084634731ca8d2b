import { z } from "zod";
import { auditActions, listAudit, type AuditQuery, type AuditRow } from "@/db/queries/console-audit";
import type { DbOrTx } from "@/db/types";
import { decodeCursor, encodeCursor, keysetPage } from "@/lib/views/cursor";
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
  prevCursor: string | null;
}

const cursorId = (cursor: string | undefined) => {
  const id = decodeCursor(cursor, 1)?.[0];
  return id && /^\d{1,15}$/.test(id) ? Number(id) : undefined;
};

/** The filters as a query; `before` pages on to older entries, `after` back to newer ones. */
export function toAuditQuery(filter: AuditFilter): AuditQuery {
  const beforeId = cursorId(filter.before);
  return {
    action: filter.action,
    actor: filter.actor,
    targetPrefix: filter.target,
    from: filter.from,
    to: filter.to,
    beforeId,
    afterId: beforeId === undefined ? cursorId(filter.after) : undefined,
  };
}

/** One page of the audit log, newest first, filtered by the URL's parameters. */
export async function loadAuditPage(db: DbOrTx, params: SearchParams, pageSize = AUDIT_PAGE_SIZE): Promise<AuditPage> {
  const actions = await auditActions(db);
  const parsed = auditFilterSchema.safeParse(params);
  if (!parsed.success) {
    const fieldErrors = z.flattenError(parsed.error).fieldErrors as Record<string, string[]>;
    return { filters: null, fieldErrors, actions, entries: [], nextCursor: null, prevCursor: null };
  }
  const query = toAuditQuery(parsed.data);
  const rows = await listAudit(db, query, pageSize + 1);
  const direction = { back: query.afterId !== undefined, forward: query.beforeId !== undefined };
  const { page, nextCursor, prevCursor } = keysetPage(rows, pageSize, direction, (row) => encodeCursor([String(row.id)]));
  return {
    filters: parsed.data,
    fieldErrors: {},
    actions,
    entries: page.map((row) => ({ ...row, at: row.at.toISOString(), details: JSON.stringify(row.details) })),
    nextCursor,
    prevCursor,
  };
}
