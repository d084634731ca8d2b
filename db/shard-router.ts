import type { PlacementCache } from "./citus-placement";
import type { DbOrTx } from "./types";

/**
 * Sends a key's work straight to the worker holding its shard (WEIR_CITUS_ROUTE_URLS): that
 * worker runs it as a local router query, where any other forwards it one hop more (measured on
 * one box: 7,820 against 2,144 routed selects a second). Per worker a pool; the round-robin pool
 * stays for what the placements do not name (not loaded yet, a worker missing from the list) and
 * for what has no key. Attached to the hot handle of a store, so a transaction's handle (another
 * object) is never rerouted: its statements stay on its one connection.
 */
export class ShardRouter {
  constructor(
    readonly placements: PlacementCache,
    /** A handle per worker, by "host:port" as pg_dist_node names it. */
    private readonly nodes: ReadonlyMap<string, DbOrTx>,
    private readonly fallback: DbOrTx,
  ) {}

  /** The worker holding `value`'s shard in `table`, when known and reachable by its own pool. */
  nodeOf(table: string, value: string): string | undefined {
    const node = this.placements.nodeOf(table, value);
    return node !== undefined && this.nodes.has(node) ? node : undefined;
  }

  /** The handle of a worker from nodeOf, or the round-robin one. */
  dbOfNode(node: string | undefined): DbOrTx {
    return (node !== undefined && this.nodes.get(node)) || this.fallback;
  }

  dbFor(table: string, value: string): DbOrTx {
    return this.dbOfNode(this.nodeOf(table, value));
  }

  /** `items` grouped by the worker holding each one's shard, with the handle each group goes through. */
  groupByNode<T>(table: string, items: readonly T[], valueOf: (item: T) => string): { items: T[]; db: DbOrTx }[] {
    const byNode = new Map<string | undefined, T[]>();
    for (const item of items) {
      const node = this.nodeOf(table, valueOf(item));
      const group = byNode.get(node);
      if (group) group.push(item);
      else byNode.set(node, [item]);
    }
    return Array.from(byNode, ([node, group]) => ({ items: group, db: this.dbOfNode(node) }));
  }
}

const routers = new WeakMap<object, ShardRouter>();

export function attachRouter(db: DbOrTx, router: ShardRouter): void {
  routers.set(db, router);
}

export function routerOf(db: DbOrTx): ShardRouter | undefined {
  return routers.get(db);
}

/** The handle a one-key statement on `table` by `value` goes through: its worker's when `db` routes, else `db`. */
export function routedDb(db: DbOrTx, table: string, value: string): DbOrTx {
  return routers.get(db)?.dbFor(table, value) ?? db;
}

/** "host:port" of a connection string, as pg_dist_node names a worker (no port: 5432). */
export function nodeAddress(url: string): string {
  const parsed = new URL(url);
  return `${parsed.hostname}:${parsed.port || "5432"}`;
}

/**
 * Warns once per worker that holds shards but matches no route URL ("host:port" as pg_dist_node
 * names it, e.g. an IP where the list has a DNS name): its keys still answer right, through the
 * round-robin pool, one hop slower. Given to the PlacementCache as what it tells after each read.
 */
export function warnUnlistedWorkers(listed: ReadonlySet<string>, warn: (message: string) => void = console.warn) {
  const warned = new Set<string>();
  return (nodes: ReadonlySet<string>) => {
    for (const node of nodes) {
      if (listed.has(node) || warned.has(node)) continue;
      warned.add(node);
      warn(
        `[weir] the Citus worker ${node} (as pg_dist_node names it) holds shards but matches no WEIR_CITUS_ROUTE_URLS entry: ` +
          `its keys go through any worker, one hop slower. List it by that host and port.`,
      );
    }
  };
}
