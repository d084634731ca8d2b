import { z } from "zod";
import { countKeys, listKeysPage, type KeyCursor } from "@/db/queries/console-keys";
import { findService } from "@/db/queries/services";
import type { DbOrTx } from "@/db/types";
import { rawValues, type SearchParams } from "@/lib/validation/console-common";
import { KEY_PAGE_SIZE, keyBrowserQuerySchema, type KeyBrowserQuery } from "@/lib/validation/console-keys";
import { LIST_COUNT_CAP } from "./capped-count";
import { serviceSummary, type ServiceSummary } from "./service-summary";
import { decodeCursor, encodeCursor, pageCursors } from "./cursor";

export const KEY_FILTER_NAMES = ["prefix", "from", "to", "minVersion", "sort"] as const;

const EXACT_TS = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z$/;

export interface KeyBrowserRow {
  messageId: string;
  version: number;
  hash: string;
  firstSeen: string;
  lastChanged: string;
}

export interface KeyBrowserData {
  service: ServiceSummary;
  filters: KeyBrowserQuery | null;
  fieldErrors: Record<string, string[]>;
  /** The filters as the URL gave them, for a form that keeps a bad value in place. */
  raw: Record<string, string>;
  rows: KeyBrowserRow[];
  nextCursor: string | null;
  prevCursor: string | null;
  /** Matching keys counted up to KEY_COUNT_CAP; null when the filters would make counting a long scan. */
  total: { count: number; capped: boolean } | null;
}

/** Counting stops here, so a service with millions of keys costs one short index range scan. */
export const KEY_COUNT_CAP = LIST_COUNT_CAP;

export function decodeKeyCursor(value: string | undefined): KeyCursor | undefined {
  const parts = decodeCursor(value, 2);
  if (!parts || !EXACT_TS.test(parts[0]!)) return undefined;
  return { lastChanged: parts[0]!, messageId: parts[1]! };
}

/** One page of the key browser, or null when the service does not exist. Bad filters come back as field errors. */
export async function loadKeyBrowser(
  db: DbOrTx,
  serviceId: string,
  params: SearchParams,
  pageSize = KEY_PAGE_SIZE,
): Promise<KeyBrowserData | null> {
  const service = await findService(db, serviceId);
  if (!service) return null;
  const summary = serviceSummary(service);
  const raw = rawValues(params, KEY_FILTER_NAMES);
  const parsed = keyBrowserQuerySchema.safeParse(params);
  if (!parsed.success) {
    const fieldErrors = z.flattenError(parsed.error).fieldErrors as Record<string, string[]>;
    return { service: summary, filters: null, fieldErrors, raw, rows: [], nextCursor: null, prevCursor: null, total: null };
  }
  const q = parsed.data;
  const before = decodeKeyCursor(q.before);
  const after = before ? undefined : decodeKeyCursor(q.after);
  const scope = { serviceId: service.id, prefix: q.prefix, changedFrom: q.from, changedTo: q.to, minVersion: q.minVersion };
  // Only filters that bound one index range are counted: a version filter or prefix plus times could scan the whole service.
  const countable = (q.minVersion ?? 1) <= 1 && !(q.prefix && (q.from || q.to));
  const [page, total] = await Promise.all([
    listKeysPage(db, { ...scope, sort: q.sort, after, before, limit: pageSize }),
    countable ? countKeys(db, scope, KEY_COUNT_CAP) : Promise.resolve(null),
  ]);
  const cursors = pageCursors(page.rows, { back: before !== undefined, forward: after !== undefined, hasMore: page.hasMore }, (row) =>
    encodeCursor([row.cursor.lastChanged, row.cursor.messageId]),
  );
  return {
    service: summary,
    filters: q,
    fieldErrors: {},
    raw,
    rows: page.rows.map((row) => ({
      messageId: row.messageId,
      version: row.version,
      hash: row.hash,
      firstSeen: row.firstSeen.toISOString(),
      lastChanged: row.lastChanged.toISOString(),
    })),
    ...cursors,
    total,
  };
}
