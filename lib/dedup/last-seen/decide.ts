import { isCitus } from "@/db/citus";
import { runRaw } from "@/db/raw";
import type { DbOrTx } from "@/db/types";
import { decided, type DecisionOrigin } from "@/lib/telemetry/decisions";
import { hashJsonAt } from "@/lib/dedup/canonical/canonical-json";
import type { PathFilter } from "@/lib/dedup/canonical/path-filter";
import { hashesNoMoreThan } from "@/lib/dedup/canonical/path-filter-cover";
import { structuralHash } from "@/lib/dedup/canonical/structural-hash";
import { forEachLimited, ROUTED_CONCURRENCY } from "../routed";
import { decideByNode } from "./decide-by-node";
import { hashSettingsHistory } from "./hash-settings-history";
import { serviceConfigs } from "./service-config";
import {
  currentVersionStatement,
  decideOneStatement,
  decideStatement,
  keptPayloadStatement,
  rebaseStatement,
  type DecideRow,
  type StatementItem,
} from "./statement";

export type Decision = "new" | "changed" | "duplicate";

/**
 * A check hashed under its service's current settings. The payload's text stays at hand (a
 * request body and where the payload starts in it) to hash it again under older settings.
 */
export interface HashedCheck extends StatementItem {
  payloadSource: string;
  payloadAt: number;
  /** Who asked (the journal's caller, request id and trace); set by the door. */
  origin?: DecisionOrigin;
}

export interface CheckOutcome {
  serviceId: string;
  messageId: string;
  decision: Decision;
  version: number;
  hash: string;
  /** The service's hash settings version `hash` was made under. */
  hashVersion: number;
  /** When the stored version was accepted: for a duplicate, when the payload it matched was. */
  acceptedAt: Date;
  /** A duplicate only: the ref given with the check that stored the version it matched (null: none). */
  firstRef?: string | null;
}

/** Where a key stood when a check found it under other hash settings. */
interface StoredAt {
  version: number;
  hashVersion: number;
}

const keyOf = (serviceId: string, messageId: string) => `${serviceId}\u0000${messageId}`;

/**
 * Splits items into rounds of distinct keys, keeping the order of items that
 * share a key: item k of a key only runs after item k-1 of that key committed.
 */
export function splitIntoRounds<T extends { serviceId: string; messageId: string }>(items: readonly T[]): number[][] {
  const rounds: number[][] = [];
  const seen = new Map<string, number>();
  items.forEach((item, index) => {
    const key = keyOf(item.serviceId, item.messageId);
    const round = seen.get(key) ?? 0;
    seen.set(key, round + 1);
    (rounds[round] ??= []).push(index);
  });
  return rounds;
}

/**
 * Decides items whose keys are all distinct: on one PostgreSQL in one statement, on Citus
 * in one call per worker (decideByNode); plus a read per lost race.
 */
export async function decideDistinct(db: DbOrTx, items: readonly HashedCheck[]): Promise<CheckOutcome[]> {
  if (items.length === 0) return [];
  const rows = (await isCitus(db)) ? await decideByNode(db, items) : await decideOnOneServer(db, items);
  const byPosition = new Array<DecideRow | undefined>(items.length);
  for (const row of rows) byPosition[row.ord - 1] = row;
  const outcomes = new Array<CheckOutcome>(items.length);
  const stale: number[] = [];
  for (let i = 0; i < items.length; i++) {
    const item = items[i]!;
    const row = byPosition[i];
    if (row?.decision === "stale") stale.push(i);
    else outcomes[i] = row ? toOutcome(item, row) : await resolveLostRace(db, item);
  }
  // Only the first check of each key after a settings change comes here.
  if (stale.length > 0) {
    const asked = await forEachLimited(stale, ROUTED_CONCURRENCY, (i) => decideStale(db, items[i]!, 0));
    stale.forEach((i, position) => (outcomes[i] = asked[position]!));
  }
  return outcomes;
}

/**
 * On one PostgreSQL: a lone check through the one-key function, more in one batch statement. The
 * batch statement's arrays leave the planner no row count to plan a generic plan with, so it is
 * planned afresh at every call (0.57 ms measured on 1 M keys); the one-key function's plans are
 * cached. A lone check is what light load sends: measured one at a time on 1 M keys, the batch
 * statement took 0.70-0.95 ms for it, the function 0.17-0.23 ms, the bare upsert 0.15-0.17 ms.
 */
async function decideOnOneServer(db: DbOrTx, items: readonly HashedCheck[]): Promise<DecideRow[]> {
  if (items.length > 1) return runRaw<DecideRow>(db, decideStatement(items));
  const rows = await runRaw<Omit<DecideRow, "ord">>(db, decideOneStatement(items[0]!));
  return rows.map((row) => ({ ...row, ord: 1 }));
}

/**
 * The key's hash was made under other hash settings. Newer ones than this node's: its cached
 * settings are out of date, and the check is decided under the key's. Older ones: the key is
 * judged by the payload that was accepted, never by the settings alone. When that payload is
 * kept (history), it is hashed under the current settings and the key moves to them (exact);
 * otherwise the payload is hashed under the key's settings too and the key asked again with
 * both hashes, so a payload that did not change is a duplicate whatever the settings did since.
 */
async function askUnderStoredSettings(db: DbOrTx, item: HashedCheck, stored: StoredAt, attempt: number): Promise<CheckOutcome> {
  if (stored.hashVersion > item.hashVersion) {
    serviceConfigs.invalidate(item.serviceId);
    const filter = await hashSettingsHistory.filterOf(db, item.serviceId, stored.hashVersion);
    const { hash } = hashJsonAt(item.payloadSource, item.payloadAt, { filter });
    return decideOne(db, { ...item, hash, hashVersion: stored.hashVersion }, attempt + 1);
  }
  const [older, current] = await Promise.all([
    hashSettingsHistory.filterOf(db, item.serviceId, stored.hashVersion),
    hashSettingsHistory.filterOf(db, item.serviceId, item.hashVersion),
  ]);
  if (item.historyDepth > 0 && (await rebaseOnKeptPayload(db, item, stored, older, current))) {
    return decideOne(db, item, attempt + 1);
  }
  const { hash } = hashJsonAt(item.payloadSource, item.payloadAt, { filter: older });
  const upgrade = hashesNoMoreThan(current, older);
  return decideOne(db, { ...item, stored: { hash, hashVersion: stored.hashVersion, upgrade } }, attempt + 1);
}

/**
 * Moves the key's hash to the current settings by hashing its kept payload of the stored
 * version under them: only if that payload hashes to the stored hash under the key's settings
 * (it is the accepted one) and the key is still at that version. False when nothing moved.
 */
async function rebaseOnKeptPayload(
  db: DbOrTx,
  item: HashedCheck,
  stored: StoredAt,
  older: PathFilter | null,
  current: PathFilter | null,
): Promise<boolean> {
  const [kept] = await runRaw<{ payload: string }>(db, keptPayloadStatement(item.serviceId, item.messageId, stored.version));
  if (!kept) return false;
  let accepted: string;
  let rebased: string;
  try {
    accepted = structuralHash(kept.payload, { filter: older }).hash;
    rebased = structuralHash(kept.payload, { filter: current }).hash;
  } catch {
    return false;
  }
  const moved = await runRaw<{ version: number }>(
    db,
    rebaseStatement({ ...item, version: stored.version, from: { hash: accepted, hashVersion: stored.hashVersion }, hash: rebased }),
  );
  return moved.length > 0;
}

/**
 * The upsert found a concurrently committed row with the same hash and did not
 * update it: the answer is `duplicate`. The version is read in a new snapshot;
 * if the key changed again meanwhile, the check is decided afresh (it then
 * linearizes after that change).
 */
async function resolveLostRace(db: DbOrTx, item: HashedCheck, attempt = 0): Promise<CheckOutcome> {
  const [row] = await runRaw<{ version: number; hash: string; hash_version: number; last_changed: Date | string; first_ref: string | null }>(
    db,
    currentVersionStatement(item.serviceId, item.messageId),
  );
  if (row && row.hash === item.hash && row.hash_version === item.hashVersion) {
    return toOutcome(item, { ...row, decision: "duplicate" });
  }
  if (attempt >= 3) throw new Error(`key ${item.serviceId}/${item.messageId} keeps changing under a check`);
  return decideOne(db, item, attempt + 1);
}

/** One key through the routable one-key statement. */
async function decideOne(db: DbOrTx, item: HashedCheck, attempt = 0): Promise<CheckOutcome> {
  const [row] = await runRaw<Omit<DecideRow, "ord">>(db, decideOneStatement(item));
  if (!row) return resolveLostRace(db, item, attempt);
  if (row.decision !== "stale") return toOutcome(item, row);
  return decideStale(db, item, attempt);
}

/**
 * The key's hash was made under other hash settings than the item's: which ones is read here,
 * not carried back with every answer (the hot path stays as lean as before hash settings
 * versions; only the first check of a key after a settings change comes here).
 */
async function decideStale(db: DbOrTx, item: HashedCheck, attempt: number): Promise<CheckOutcome> {
  // The settings changed again between the asks.
  if (attempt >= 3) throw new Error(`key ${item.serviceId}/${item.messageId} keeps changing hash settings under a check`);
  const [row] = await runRaw<{ version: number; hash_version: number }>(db, currentVersionStatement(item.serviceId, item.messageId));
  // Reset, or moved to the item's settings, since the ask: ask again.
  if (!row || row.hash_version === item.hashVersion) return decideOne(db, item, attempt + 1);
  return askUnderStoredSettings(db, item, { version: Number(row.version), hashVersion: row.hash_version }, attempt);
}

function toOutcome(item: HashedCheck, row: Omit<DecideRow, "ord">): CheckOutcome {
  if (row.decision === "stale") throw new Error(`a stale answer for ${item.serviceId}/${item.messageId} reached an outcome`);
  const at = row.last_changed;
  const outcome: CheckOutcome = {
    serviceId: item.serviceId,
    messageId: item.messageId,
    decision: row.decision,
    version: Number(row.version),
    hash: item.hash,
    hashVersion: item.hashVersion,
    acceptedAt: at instanceof Date ? at : new Date(at),
  };
  if (row.decision === "duplicate") outcome.firstRef = row.first_ref ?? null;
  return outcome;
}

/**
 * decideDistinct, with one telemetry event per decision (or per item that failed):
 * what single checks (through the coalescer), batches and library mode all run.
 */
export async function decideCounted(db: DbOrTx, items: readonly HashedCheck[]): Promise<CheckOutcome[]> {
  let outcomes: CheckOutcome[];
  try {
    outcomes = await decideDistinct(db, items);
  } catch (err) {
    for (const item of items) decided({ mode: "last_seen", subject: item.serviceId, decision: "error" });
    throw err;
  }
  for (let i = 0; i < outcomes.length; i++) {
    const outcome = outcomes[i]!;
    decided({
      mode: "last_seen",
      subject: outcome.serviceId,
      decision: outcome.decision,
      key: outcome.messageId,
      version: outcome.version,
      matchedAt: outcome.acceptedAt,
      hashVersion: outcome.hashVersion,
      origin: items[i]!.origin,
      ref: items[i]!.ref,
    });
  }
  return outcomes;
}

/** Decides any list of checks in order: one statement per round of distinct keys. */
export async function decideInOrder(db: DbOrTx, items: readonly HashedCheck[]): Promise<CheckOutcome[]> {
  const outcomes = new Array<CheckOutcome>(items.length);
  for (const round of splitIntoRounds(items)) {
    const done = await decideCounted(db, round.map((index) => items[index]!));
    round.forEach((index, position) => (outcomes[index] = done[position]!));
  }
  return outcomes;
}

/** Ends the transaction of a decision that was only asked for, so nothing it wrote stays. */
class AskedOnly extends Error {}

/**
 * What a check would answer now, asked of the real decision (the same statement
 * a check runs) inside a transaction that is then rolled back: the rule lives in
 * one place. While it runs, a write it would make holds that key's row lock.
 */
export async function wouldDecide(db: DbOrTx, item: HashedCheck): Promise<CheckOutcome> {
  let outcome: CheckOutcome | undefined;
  try {
    await db.transaction(async (tx) => {
      [outcome] = await decideDistinct(tx, [item]);
      // Our own error, not tx.rollback(): Next's server bundle may hold a second copy of
      // drizzle's TransactionRollbackError class, and instanceof would miss it there.
      throw new AskedOnly();
    });
  } catch (err) {
    if (!(err instanceof AskedOnly)) throw err;
  }
  if (!outcome) throw new Error(`no decision for ${item.serviceId}/${item.messageId}`);
  return outcome;
}
