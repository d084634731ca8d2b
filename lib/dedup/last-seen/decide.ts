import { isCitus } from "@/db/citus";
import { runRaw } from "@/db/raw";
import type { DbOrTx } from "@/db/types";
import { decided } from "@/lib/telemetry/decisions";
import { forEachLimited, ROUTED_CONCURRENCY } from "../routed";
import { currentVersionStatement, decideOneStatement, decideStatement, type DecideRow, type StatementItem } from "./statement";

export type Decision = "new" | "changed" | "duplicate";

export type HashedCheck = StatementItem;

export interface CheckOutcome {
  serviceId: string;
  messageId: string;
  decision: Decision;
  version: number;
  hash: string;
  /** When the stored version was accepted: for a duplicate, when the payload it matched was. */
  acceptedAt: Date;
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
 * Decides items whose keys are all distinct: on one PostgreSQL in one statement
 * (plus a read per lost race); on Citus one routed statement per key, since an
 * array of keys spans every shard.
 */
export async function decideDistinct(db: DbOrTx, items: readonly HashedCheck[]): Promise<CheckOutcome[]> {
  if (items.length === 0) return [];
  if (await isCitus(db)) return forEachLimited(items, ROUTED_CONCURRENCY, (item) => decideOne(db, item));
  const rows = await runRaw<DecideRow>(db, decideStatement(items));
  const byPosition = new Array<DecideRow | undefined>(items.length);
  for (const row of rows) byPosition[row.ord - 1] = row;
  const outcomes = new Array<CheckOutcome>(items.length);
  for (let i = 0; i < items.length; i++) {
    const item = items[i]!;
    const row = byPosition[i];
    outcomes[i] = row ? toOutcome(item, row) : await resolveLostRace(db, item);
  }
  return outcomes;
}

/**
 * The upsert found a concurrently committed row with the same hash and did not
 * update it: the answer is `duplicate`. The version is read in a new snapshot;
 * if the key changed again meanwhile, the check is decided afresh (it then
 * linearizes after that change).
 */
async function resolveLostRace(db: DbOrTx, item: HashedCheck, attempt = 0): Promise<CheckOutcome> {
  const [row] = await runRaw<Omit<DecideRow, "ord" | "decision"> & { hash: string }>(db, currentVersionStatement(item.serviceId, item.messageId));
  if (row && row.hash === item.hash) return toOutcome(item, { ...row, decision: "duplicate" });
  if (attempt >= 3) throw new Error(`key ${item.serviceId}/${item.messageId} keeps changing under a check`);
  return decideOne(db, item, attempt + 1);
}

/** One key through the routable one-key statement. */
async function decideOne(db: DbOrTx, item: HashedCheck, attempt = 0): Promise<CheckOutcome> {
  const [row] = await runRaw<Omit<DecideRow, "ord">>(db, decideOneStatement(item));
  return row ? toOutcome(item, row) : resolveLostRace(db, item, attempt);
}

function toOutcome(item: HashedCheck, row: Omit<DecideRow, "ord">): CheckOutcome {
  const at = row.last_changed;
  return {
    serviceId: item.serviceId,
    messageId: item.messageId,
    decision: row.decision,
    version: Number(row.version),
    hash: item.hash,
    acceptedAt: at instanceof Date ? at : new Date(at),
  };
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
  for (const outcome of outcomes) decided({ mode: "last_seen", subject: outcome.serviceId, decision: outcome.decision });
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
