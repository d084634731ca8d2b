import type { DbOrTx } from "@/db/types";
import { isStoreUnavailable } from "@/db/unavailable";
import { OverloadedError, StoreUnavailableError } from "@/lib/errors";
import { setting } from "@/lib/config";

interface Pending<I, O> {
  item: I;
  key: string;
  /** Who asked (a credential's id), for shedding the heaviest first; undefined counts as one caller. */
  caller: string;
  /** Date.now() past which the item gives up waiting for a statement (503). */
  deadline: number;
  resolve(outcome: O): void;
  reject(err: unknown): void;
}

export interface CoalescerOptions {
  /** Most items decided by one statement. */
  maxBatch?: number;
  /** Statements running at once; each holds one pool connection. */
  maxInFlight?: number;
  /** Items allowed to wait; past this, new ones fail fast with 503 instead of queueing without bound. */
  maxQueued?: number;
  /**
   * Longest wait for a statement to start, in ms; past it the item fails with 503. Waiting here is
   * waiting for a connection, so it has the pool's bound (WEIR_PG_CONNECT_TIMEOUT_MS): without it a
   * key repeated in the queue waits one statement per copy ahead of it, as long as the store hangs.
   */
  maxWaitMs?: number;
  /**
   * Longest time the oldest queued item may have waited before new items are turned away at once
   * with a 503, in ms (WEIR_SHED_AFTER_MS, default 200). Past capacity the queue would otherwise
   * grow until maxWaitMs, and every answer, not just the excess, would take seconds.
   */
  shedAfterMs?: number;
}

/**
 * Statements in flight per coalescer (WEIR_COALESCE_MAX_IN_FLIGHT, default half the pool, 1 to 4):
 * few large statements beat many small ones on two cores (one plan, one commit
 * and one round trip per batch), and most of the pool stays free for batch
 * requests and the console.
 */
export function coalescerOptionsFromEnv(): CoalescerOptions {
  return {
    maxInFlight: setting("WEIR_COALESCE_MAX_IN_FLIGHT") ?? Math.max(1, Math.min(4, Math.floor(setting("WEIR_PG_POOL_MAX") / 2))),
    maxBatch: setting("WEIR_COALESCE_MAX_BATCH"),
    maxWaitMs: setting("WEIR_PG_CONNECT_TIMEOUT_MS"),
    shedAfterMs: setting("WEIR_SHED_AFTER_MS"),
  };
}

/** Decides items with distinct keys in one statement; outcomes in the order of the items. */
export type DecideDistinct<I, O> = (db: DbOrTx, items: readonly I[]) => Promise<O[]>;

/**
 * Turns concurrent single decisions into batch statements. An item waits at
 * most for the statements already running; while they run, new items pile up
 * and leave together in the next statement, so throughput grows with load
 * instead of the pool queue. Keys within one statement are distinct; a repeated
 * key waits for the next one. Every answer comes from that statement's own
 * reads and writes: nothing is answered from memory.
 *
 * Admission: when the oldest waiting item has waited longer than shedAfterMs, a new item is
 * refused at once (503, Retry-After 1) instead of joining a queue it would wait seconds in. The
 * answer says why: `overloaded` while statements keep completing (weir is behind), or
 * `store_unavailable` when none has completed for that long (the store is not answering).
 * While weir is only behind, the heaviest callers are refused first: an item whose caller has
 * fewer items queued than its fair part (the queue divided by the callers in it) still joins.
 */
export class StatementCoalescer<I, O> {
  private queue: Pending<I, O>[] = [];
  private readonly queuedBy = new Map<string, number>();
  private inFlight = 0;
  private scheduled = false;
  private readonly maxBatch: number;
  private readonly maxInFlight: number;
  private readonly maxQueued: number;
  private readonly maxWaitMs: number;
  private readonly shedAfterMs: number;
  /**
   * Date.now() of the last statement that answered: tells "behind" from "stalled". A statement
   * that failed (timed out, lost its connection) does not count: the store did not answer it.
   */
  private lastAnsweredAt = Date.now();
  /** Date.now() of the last statement that failed because the store did not answer it. */
  private lastStoreFailureAt = 0;
  private expiry: NodeJS.Timeout | undefined;
  private readonly drain = () => {
    this.scheduled = false;
    while (this.queue.length > 0 && this.inFlight < this.maxInFlight) this.runNext();
  };

  constructor(
    private readonly getDb: () => Promise<DbOrTx>,
    private readonly decide: DecideDistinct<I, O>,
    options: CoalescerOptions = {},
  ) {
    this.maxBatch = options.maxBatch ?? 256;
    this.maxInFlight = options.maxInFlight ?? 4;
    this.maxQueued = options.maxQueued ?? 20_000;
    this.maxWaitMs = options.maxWaitMs ?? 2000;
    this.shedAfterMs = options.shedAfterMs ?? Number.POSITIVE_INFINITY;
  }

  get queued(): number {
    return this.queue.length;
  }

  submit(item: I, key: string, caller = ""): Promise<O> {
    const now = Date.now();
    const refusal = this.refusal(now, caller);
    if (refusal) return Promise.reject(refusal);
    return new Promise<O>((resolve, reject) => {
      this.queue.push({ item, key, caller, deadline: now + this.maxWaitMs, resolve, reject });
      this.queuedBy.set(caller, (this.queuedBy.get(caller) ?? 0) + 1);
      this.armExpiry();
      if (!this.scheduled && this.inFlight < this.maxInFlight) {
        this.scheduled = true;
        // setImmediate lets every request parsed in this turn of the event loop join the statement.
        setImmediate(this.drain);
      }
    });
  }

  /** Why a new item cannot join the queue now, if it cannot. */
  private refusal(now: number, caller: string): Error | undefined {
    const head = this.queue[0];
    const headWaitedMs = head ? now - (head.deadline - this.maxWaitMs) : 0;
    if (this.queue.length < this.maxQueued && headWaitedMs <= this.shedAfterMs) return undefined;
    // No answer for that long while a statement runs, or since the last one failed on the store: a
    // stall, not a backlog (between a failed statement and the next, none runs for a moment).
    const stalled = now - this.lastAnsweredAt > this.shedAfterMs && (this.inFlight > 0 || this.lastStoreFailureAt > this.lastAnsweredAt);
    if (stalled || this.shedAfterMs === Number.POSITIVE_INFINITY) return new StoreUnavailableError(1);
    const callers = this.queuedBy.size + (this.queuedBy.has(caller) ? 0 : 1);
    const light = (this.queuedBy.get(caller) ?? 0) + 1 <= this.queue.length / callers;
    return light && this.queue.length < this.maxQueued ? undefined : new OverloadedError(1, !light);
  }

  private dequeued(pending: Pending<I, O>): void {
    const left = (this.queuedBy.get(pending.caller) ?? 1) - 1;
    if (left > 0) this.queuedBy.set(pending.caller, left);
    else this.queuedBy.delete(pending.caller);
  }

  /** One timer for the whole queue: items keep their arrival order, so the head expires first. */
  private armExpiry(): void {
    if (this.expiry !== undefined || this.queue.length === 0) return;
    this.expiry = setTimeout(() => {
      this.expiry = undefined;
      this.expire();
      this.armExpiry();
    }, Math.max(0, this.queue[0]!.deadline - Date.now()));
    this.expiry.unref();
  }

  private expire(): void {
    const now = Date.now();
    let expired = 0;
    while (expired < this.queue.length && this.queue[expired]!.deadline <= now) expired++;
    if (expired === 0) return;
    for (const pending of this.queue.splice(0, expired)) {
      this.dequeued(pending);
      pending.reject(new StoreUnavailableError(1));
    }
  }

  private takeBatch(): Pending<I, O>[] {
    const queue = this.queue;
    const keys = new Set<string>();
    let batch: Pending<I, O>[] | undefined;
    let rest: Pending<I, O>[] | undefined;
    for (let i = 0; i < queue.length; i++) {
      const pending = queue[i]!;
      const fits = (batch?.length ?? i) < this.maxBatch && !keys.has(pending.key);
      if (fits) keys.add(pending.key);
      if (fits && rest === undefined) continue; // still the common prefix: no copy yet
      if (rest === undefined) {
        batch = queue.slice(0, i);
        rest = [];
      }
      (fits ? batch! : rest).push(pending);
    }
    if (rest === undefined) {
      this.queue = [];
      return queue;
    }
    this.queue = rest;
    return batch!;
  }

  private runNext(): void {
    const batch = this.takeBatch();
    if (batch.length === 0) return;
    for (const pending of batch) this.dequeued(pending);
    this.inFlight++;
    void this.run(batch);
  }

  private async run(batch: Pending<I, O>[]): Promise<void> {
    try {
      const db = await this.getDb();
      const items = new Array<I>(batch.length);
      for (let i = 0; i < batch.length; i++) items[i] = batch[i]!.item;
      const outcomes = await this.decide(db, items);
      this.lastAnsweredAt = Date.now();
      for (let i = 0; i < batch.length; i++) batch[i]!.resolve(outcomes[i]!);
    } catch (err) {
      if (isStoreUnavailable(err)) this.lastStoreFailureAt = Date.now();
      for (const pending of batch) pending.reject(err);
    } finally {
      this.inFlight--;
      if (this.queue.length > 0 && !this.scheduled) {
        this.scheduled = true;
        setImmediate(this.drain);
      }
    }
  }
}
