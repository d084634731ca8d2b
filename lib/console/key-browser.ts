import { z } from "zod";
import { listKeysPage, type KeyCursor } from "@/db/queries/console-keys";
import { findService, type ServiceRow } from "@/db/queries/services";
import type { DbOrTx } from "@/db/types";
import type { SearchParams } from "@/lib/validation/console-common";
import { KEY_PAGE_SIZE, keyBrowserQuerySchema, type KeyBrowserQuery } from "@/lib/validation/console-keys";
import { decodeCursor, encodeCursor } from "./cursor";

const EXACT_TS = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z$/;

export interface KeyBrowserRow {
  messageId: string;
  version: number;
  hash: string;
  firstSeen: string;
  lastChanged: string;
}

export interface KeyBrowserData {
  service: Pick<ServiceRow, "id" | "displayName" | "ignoredPaths" | "historyDepth">;
  filters: KeyBrowserQuery | null;
  fieldErrors: Record<string, string[]>;
  rows: KeyBrowserRow[];
  nextCursor: string | null;
}

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
  const summary = {
    id: service.id,
    displayName: service.displayName,
    ignoredPaths: service.ignoredPaths,
    historyDepth: service.historyDepth,
  };
  const parsed = keyBrowserQuerySchema.safeParse(params);
  if (!parsed.success) {
    const fieldErrors = z.flattenError(parsed.error).fieldErrors as Record<string, string[]>;
    return { service: summary, filters: null, fieldErrors, rows: [], nextCursor: null };
  }
  const q = parsed.data;
  const page = await listKeysPage(db, {
    serviceId: service.id,
    prefix: q.prefix,
    changedFrom: q.from,
    changedTo: q.to,
    minVersion: q.minVersion,
    sort: q.sort,
    after: decodeKeyCursor(q.after),
    limit: pageSize,
  });
  const last = page.rows.at(-1);
  return {
    service: summary,
    filters: q,
    fieldErrors: {},
    rows: page.rows.map((row) => ({
      messageId: row.messageId,
      version: row.version,
      hash: row.hash,
      firstSeen: row.firstSeen.toISOString(),
      lastChanged: row.lastChanged.toISOString(),
    })),
    nextCursor: page.hasMore && last ? encodeCursor([last.cursor.lastChanged, last.cursor.messageId]) : null,
  };
}
