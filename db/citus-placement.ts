import { hashText } from "./citus-hash";

/** A shard's hash range and the worker holding it ("host:port", as pg_dist_node names it). */
interface Range {
  min: number;
  max: number;
  node: string;
}

interface Queryable {
  query(text: string): Promise<{ rows: unknown[] }>;
}

// Active primaries only; a shard mid-move may briefly show two placements, either answers (the worker forwards).
const PLACEMENTS_SQL = `select s.logicalrelid::regclass::text as "table", s.shardminvalue::int as min, s.shardmaxvalue::int as max,
    n.nodename || ':' || n.nodeport as node
  from pg_dist_shard s
  join pg_dist_placement p on p.shardid = s.shardid
  join pg_dist_node n on n.groupid = p.groupid
  where s.shardminvalue is not null and n.isactive and n.noderole = 'primary'
  order by 1, 2`;

/** How often the placements are read again when nothing failed: a moved shard costs a hop until then. */
export const PLACEMENT_REFRESH_MS = 5000;

/**
 * Where each shard of weir's hash-distributed tables lives, read from a Citus node's metadata (a
 * worker's: metadata is synced, and the coordinator may be down) and read again every few seconds
 * and after a routed call failed. nodeOf is synchronous: a key's worker is known before its
 * statement leaves, with no round trip. Unknown (not loaded yet, a table it does not know): the
 * caller goes through any worker, which forwards. A stale answer (a shard moved since the last
 * read) is slower, never wrong, for the same reason.
 */
export class PlacementCache {
  private ranges = new Map<string, Range[]>();
  private loading: Promise<void> | undefined;
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly source: Queryable,
    private readonly refreshMs = PLACEMENT_REFRESH_MS,
    /** Told after each read which workers ("host:port") hold shards. */
    private readonly onRead?: (nodes: ReadonlySet<string>) => void,
  ) {}

  /** Loads now and then every refreshMs; a failed load keeps the last placements and is tried again. */
  start(): void {
    void this.refresh();
    this.timer ??= setInterval(() => void this.refresh(), this.refreshMs);
    this.timer.unref();
  }

  stop(): void {
    clearInterval(this.timer);
    this.timer = undefined;
  }

  /** Reads the placements again (one read at a time: callers during a read share it). */
  refresh(): Promise<void> {
    this.loading ??= this.load().finally(() => (this.loading = undefined));
    return this.loading;
  }

  /** The "host:port" of the worker holding the shard of `value` in `table`, if known. */
  nodeOf(table: string, value: string): string | undefined {
    const ranges = this.ranges.get(table);
    if (!ranges) return undefined;
    const hash = hashText(value);
    // The last range starting at or below the hash: ranges tile the int4 space in order.
    let low = 0;
    let high = ranges.length - 1;
    while (low < high) {
      const mid = (low + high + 1) >> 1;
      if (ranges[mid]!.min <= hash) low = mid;
      else high = mid - 1;
    }
    const range = ranges[low];
    return range && range.min <= hash && hash <= range.max ? range.node : undefined;
  }

  private async load(): Promise<void> {
    try {
      const { rows } = await this.source.query(PLACEMENTS_SQL);
      const next = new Map<string, Range[]>();
      for (const row of rows as (Range & { table: string })[]) {
        const ranges = next.get(row.table) ?? next.set(row.table, []).get(row.table)!;
        // Two placements of one range (a move finishing): the first is kept.
        if (ranges.at(-1)?.min !== row.min) ranges.push({ min: row.min, max: row.max, node: row.node });
      }
      this.ranges = next;
      this.onRead?.(new Set([...next.values()].flatMap((ranges) => ranges.map((range) => range.node))));
    } catch (err) {
      console.error(`[weir] reading the Citus shard placements failed (keys go through any worker meanwhile): ${(err as Error).message}`);
    }
  }
}
