import { decideSql } from "@/db/queries/last-seen-decide-sql";
import type { RawStatement } from "@/db/raw";

/** The batch statement (db/queries/last-seen-decide-sql.ts): with the history CTEs, and without, the usual case. */
const DECIDE_SQL = decideSql(true);
const DECIDE_WITHOUT_HISTORY_SQL = decideSql(false);

export interface DecideRow {
  /** 1-based position of the item in the statement's input. */
  ord: number;
  version: number;
  /** `stale`: the key's hash was made under other hash settings; nothing was written. */
  decision: "new" | "changed" | "duplicate" | "stale";
  /** When the stored version was accepted. */
  last_changed: Date | string;
  /** The ref stored with that version (read for duplicates only). */
  first_ref: string | null;
}

export interface StatementItem {
  serviceId: string;
  messageId: string;
  hash: string;
  /** The service's hash settings version `hash` was made under. */
  hashVersion: number;
  /**
   * Asking again for a key stored under older settings: the payload hashed under those too.
   * Equal to the stored hash is a duplicate; the key moves to `hashVersion` only when `upgrade`
   * says that is exact (the newer settings hash a part of what the older ones did).
   */
  stored?: { hash: string; hashVersion: number; upgrade: boolean };
  /** The payload's JSON text, sent only when the service keeps history. */
  payloadText: string | null;
  historyDepth: number;
  /** The caller's ref, stored with the version this check accepts. */
  ref: string | null;
}

export function decideStatement(items: readonly StatementItem[]): RawStatement {
  const keepsHistory = items.some((i) => i.historyDepth > 0);
  return {
    name: keepsHistory ? "weir_last_seen_decide_v6" : "weir_last_seen_decide_lean_v6",
    text: keepsHistory ? DECIDE_SQL : DECIDE_WITHOUT_HISTORY_SQL,
    values: columnsOf(items),
  };
}

/** The items as the column arrays both batch forms take: keys, hashes (hex), settings versions, payloads, depths, refs. */
function columnsOf(items: readonly StatementItem[]): unknown[][] {
  return [
    items.map((i) => i.serviceId),
    items.map((i) => i.messageId),
    items.map((i) => i.hash),
    items.map((i) => i.hashVersion),
    items.map((i) => (i.historyDepth > 0 ? i.payloadText : null)),
    items.map((i) => i.historyDepth),
    items.map((i) => i.ref),
  ];
}

/**
 * One key's check as the routable function of migration 0016: the same rule as the
 * batch statement, in statements that each name the key, and the only one that takes
 * `stored` (the second ask for a key stored under older settings). On Citus it runs
 * beside the key's shard; no row back means a concurrent check committed the same hash.
 */
export function decideOneStatement(item: StatementItem): RawStatement {
  const asked = [item.serviceId, item.messageId, item.hash, item.hashVersion, item.historyDepth > 0 ? item.payloadText : null, item.historyDepth, item.ref];
  const call = (secondAsk: string) => `select version, decision, last_changed, first_ref
    from weir_last_seen_decide_v5($1, $2, decode($3, 'hex'), $4, $5, $6, ${secondAsk}, $7)`;
  if (!item.stored) {
    // The usual ask, as lean as before hash settings versions: the second-ask arguments are constants.
    return { name: "weir_last_seen_decide_one_plain_v6", text: call("null, null, false"), values: asked };
  }
  return {
    name: "weir_last_seen_decide_one_v6",
    text: call("decode($8, 'hex'), $9, $10"),
    values: [...asked, item.stored.hash, item.stored.hashVersion, item.stored.upgrade],
  };
}

/**
 * The checks of one worker (distinct keys) as one call of weir_last_seen_decide_on_shards_v1
 * (db/queries/last-seen-decide-on-shards-sql.ts): on Citus it runs on the worker holding their
 * shards, one statement per shard. Rows as the batch statement's, by position.
 */
export function decideOnShardsStatement(items: readonly StatementItem[]): RawStatement {
  return {
    name: "weir_last_seen_decide_on_shards_v1",
    text: `select ord, version, decision, last_changed, first_ref
      from weir_last_seen_decide_on_shards_v1($1, $2, $3, $4, $5, $6, $7, $8)`,
    values: [...columnsOf(items), items[0]!.messageId],
  };
}

/** After a lost race the committed version is read in a fresh snapshot. */
export function currentVersionStatement(serviceId: string, messageId: string): RawStatement {
  return {
    name: "weir_last_seen_version_v4",
    text: "select version, encode(hash, 'hex') as hash, hash_version, last_changed, ref as first_ref from last_seen where service_id = $1 and message_id = $2",
    values: [serviceId, messageId],
  };
}

/** The payload kept for one version of a key (history), to hash it under other settings. */
export function keptPayloadStatement(serviceId: string, messageId: string, version: number): RawStatement {
  return {
    name: "weir_last_seen_kept_payload_v1",
    text: "select payload from payload_versions where service_id = $1 and message_id = $2 and version = $3",
    values: [serviceId, messageId, version],
  };
}

/**
 * Moves a key's stored hash to newer hash settings: the accepted payload's hash under them, only
 * while the key is still at that version with the hash that payload has under its own settings.
 */
export function rebaseStatement(o: {
  serviceId: string;
  messageId: string;
  version: number;
  from: { hash: string; hashVersion: number };
  hash: string;
  hashVersion: number;
}): RawStatement {
  return {
    name: "weir_last_seen_rebase_v1",
    text: `update last_seen set hash = decode($4, 'hex'), hash_version = $5
      where service_id = $1 and message_id = $2 and version = $3
        and hash = decode($6, 'hex') and hash_version = $7 and hash_version < $5
      returning version`,
    values: [o.serviceId, o.messageId, o.version, o.hash, o.hashVersion, o.from.hash, o.from.hashVersion],
  };
}
