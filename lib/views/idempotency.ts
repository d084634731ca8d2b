import { z } from "zod";
import {
  countIdempotencyKeys,
  findIdempotencyKey,
  listIdempotencyKeys,
  listScopeIds,
  type IdempotencyKeyRow,
} from "@/db/queries/console-idempotency";
import { listAudit } from "@/db/queries/console-audit";
import { RELEASE_ACTION, releaseTarget } from "@/lib/dedup/idempotency/operator-release";
import type { DbOrTx } from "@/db/types";
import { rawValues, type SearchParams } from "@/lib/validation/console-common";
import { IDEMPOTENCY_PAGE_SIZE, idempotencyBrowseSchema, type KeyStateFilter } from "@/lib/validation/console-idempotency";
import { cappedCount, LIST_COUNT_CAP, type CappedCount } from "./capped-count";
import { decodeCursor, encodeCursor, keysetPage } from "./cursor";

export type KeyState = "in_progress" | "stuck" | "completed" | "expired";

export interface IdempotencyKeyView {
  scope: string;
  key: string;
  state: KeyState;
  attempt: number;
  requestHash: string;
  lockedUntil: string | null;
  responseStatus: number | null;
  /** Stored as the caller gave it; shown as text only. */
  responseBody: string | null;
  responseHeaders: string | null;
  createdAt: string;
  completedAt: string | null;
  expiresAt: string;
  /** The caller's ref given with the begin of the current attempt. */
  ref: string | null;
}

const iso = (d: Date | null) => (d ? d.toISOString() : null);

export function keyView(row: IdempotencyKeyRow, now = Date.now()): IdempotencyKeyView {
  const expired = row.expiresAt.getTime() <= now;
  const stuck = row.status === "in_progress" && (row.lockedUntil?.getTime() ?? 0) <= now;
  return {
    scope: row.scope,
    key: row.key,
    state: expired ? "expired" : row.status === "completed" ? "completed" : stuck ? "stuck" : "in_progress",
    attempt: row.attempt,
    requestHash: row.requestHash,
    lockedUntil: iso(row.lockedUntil),
    responseStatus: row.responseStatus,
    responseBody: row.responseBody,
    responseHeaders: row.responseHeaders ? JSON.stringify(row.responseHeaders, null, 2) : null,
    createdAt: row.createdAt.toISOString(),
    completedAt: iso(row.completedAt),
    expiresAt: row.expiresAt.toISOString(),
    ref: row.ref,
  };
}

export interface IdempotencyBrowse {
  scopes: string[];
  scope: string | null;
  /** The scope as the URL gave it, kept when it was refused or names no stored scope. */
  rawScope: string | null;
  /** The scope asked for exists (has keys or settings). */
  known: boolean;
  status: KeyStateFilter;
  fieldErrors: Record<string, string[]>;
  keys: IdempotencyKeyView[];
  nextCursor: string | null;
  prevCursor: string | null;
  /** Keys of the scope in this state, counted up to LIST_COUNT_CAP; null when there is no list. */
  total: CappedCount | null;
}

/** Scopes, and one page of the chosen scope's keys in the chosen state (default: the first scope, in progress). */
export async function loadIdempotencyBrowse(
  db: DbOrTx,
  params: SearchParams,
  pageSize = IDEMPOTENCY_PAGE_SIZE,
): Promise<IdempotencyBrowse> {
  const scopes = await listScopeIds(db);
  const rawScope = rawValues(params, ["scope"]).scope ?? null;
  const parsed = idempotencyBrowseSchema.safeParse(params);
  if (!parsed.success) {
    const fieldErrors = z.flattenError(parsed.error).fieldErrors as Record<string, string[]>;
    // Another field refused leaves a valid scope chosen: the page names it, never "null".
    const scope = fieldErrors.scope ? null : (idempotencyBrowseSchema.shape.scope.parse(params.scope) ?? scopes[0] ?? null);
    const known = scope !== null && scopes.includes(scope);
    return { scopes, scope, rawScope, known, status: "in_progress", fieldErrors, keys: [], nextCursor: null, prevCursor: null, total: null };
  }
  const scope = parsed.data.scope ?? scopes[0] ?? null;
  const status = parsed.data.status;
  const known = scope !== null && scopes.includes(scope);
  if (!known) return { scopes, scope, rawScope, known, status, fieldErrors: {}, keys: [], nextCursor: null, prevCursor: null, total: null };
  const beforeKey = decodeCursor(parsed.data.before, 1)?.[0];
  const afterKey = beforeKey === undefined ? decodeCursor(parsed.data.after, 1)?.[0] : undefined;
  const [rows, counted] = await Promise.all([
    listIdempotencyKeys(db, { scope, state: status, afterKey, beforeKey, limit: pageSize + 1 }),
    countIdempotencyKeys(db, { scope, state: status, cap: LIST_COUNT_CAP }),
  ]);
  const direction = { back: beforeKey !== undefined, forward: afterKey !== undefined };
  const { page, nextCursor, prevCursor } = keysetPage(rows, pageSize, direction, (row) => encodeCursor([row.key]));
  return {
    scopes,
    scope,
    rawScope,
    known,
    status,
    fieldErrors: {},
    keys: page.map((row) => keyView(row)),
    nextCursor,
    prevCursor,
    total: cappedCount(counted),
  };
}

export async function loadIdempotencyKey(db: DbOrTx, scope: string, key: string): Promise<IdempotencyKeyView | null> {
  const row = await findIdempotencyKey(db, scope, key);
  return row ? keyView(row) : null;
}

export { RELEASE_ACTION, releaseTarget };
/** How long after a release the list still confirms it. */
const RELEASE_NOTICE_MS = 10 * 60_000;

export interface ReleaseNotice {
  key: string;
  attempt: number;
  at: string;
}

/**
 * The release an audit row records, read from the log: only a release of a key in `scope` by
 * `actorId` in the last minutes. Any other id (made up, another action, scope or person, too old) is null.
 */
export async function loadReleaseNotice(
  db: DbOrTx,
  { auditId, scope, actorId, now = Date.now() }: { auditId: string; scope: string; actorId: string; now?: number },
): Promise<ReleaseNotice | null> {
  if (!/^\d{1,15}$/.test(auditId)) return null;
  const id = Number(auditId);
  const target = releaseTarget(scope);
  const [row] = await listAudit(db, { action: RELEASE_ACTION, actor: actorId, targetPrefix: target, beforeId: id + 1 }, 1);
  if (!row || row.id !== id || row.target !== target || now - row.at.getTime() > RELEASE_NOTICE_MS) return null;
  const { key, attempt } = row.details;
  return typeof key === "string" && typeof attempt === "number" ? { key, attempt, at: row.at.toISOString() } : null;
}
