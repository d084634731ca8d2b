import { WeirApiError } from "./errors";
import { currentRequestId, newRequestId } from "./request-id";
import type { CallOptions } from "./transport";

export interface CoalesceOptions {
  /** Most calls in one batch request (default 100; the API takes up to 1000). */
  maxItems?: number;
  /**
   * How long the first call of a batch waits for others, in ms. Default 0: until the
   * current turn of the event loop ends (setImmediate), so a lone call leaves at once.
   */
  maxWaitMs?: number;
}

export interface CoalesceSenders<Req, Res> {
  /** The call on its own (a batch of one goes out as this). */
  one(item: Req, call: CallOptions): Promise<Res>;
  /** One request for all the items; one answer per item, in order. */
  batch(items: Req[], call: CallOptions): Promise<Res[]>;
  /** Calls with the same key keep their order: never two of one key in flight at once. */
  keyOf(item: Req): string;
}

interface Entry<Req, Res> {
  item: Req;
  key: string;
  requestId: string;
  resolve(value: Res): void;
  reject(reason: unknown): void;
}

interface Lane<Req, Res> {
  call: CallOptions;
  pending: Entry<Req, Res>[];
  /** Cancels the scheduled flush, while one is. */
  cancel?: () => void;
}

const DEFAULT_MAX_ITEMS = 100;
const API_MAX_ITEMS = 1000;

// A batch refused as a whole for a reason that may be one item's (validation, scope, unknown id,
// size) decided nothing: each call is sent on its own, so only that caller gets the error.
// A refusal that is every caller's (authentication, rate limit after retries) fails them all.
const everyonesRefusal = (status: number) => status === 401 || status === 429;

/**
 * Sends the concurrent calls of one process as batch requests: calls made within one turn
 * of the event loop (or `maxWaitMs`) travel together, at most `maxItems` per request. Each
 * caller gets its own answer or its own error; a whole request's failure (timeout, lost
 * connection, store down) fails each of its callers with that error.
 */
export class Coalescer<Req, Res> {
  private readonly lanes = new Map<string, Lane<Req, Res>>();
  private readonly inFlight = new Set<string>();
  private readonly maxItems: number;
  private readonly maxWaitMs: number;

  constructor(private readonly senders: CoalesceSenders<Req, Res>, options: CoalesceOptions = {}) {
    this.maxItems = Math.min(API_MAX_ITEMS, Math.max(1, Math.floor(options.maxItems ?? DEFAULT_MAX_ITEMS)));
    this.maxWaitMs = Math.max(0, options.maxWaitMs ?? 0);
  }

  submit(item: Req, call: CallOptions = {}): Promise<Res> {
    // An abort signal belongs to one caller: such a call never shares a request.
    if (call.signal) return this.senders.one(item, call);
    const id = `${call.timeoutMs ?? ""}|${call.retries ?? ""}`;
    let lane = this.lanes.get(id);
    if (!lane) {
      lane = { call: { timeoutMs: call.timeoutMs, retries: call.retries }, pending: [] };
      this.lanes.set(id, lane);
    }
    const target = lane;
    return new Promise<Res>((resolve, reject) => {
      const requestId = call.requestId ?? currentRequestId() ?? newRequestId();
      target.pending.push({ item, key: this.senders.keyOf(item), requestId, resolve, reject });
      if (target.pending.length >= this.maxItems) this.flush(target);
      else if (!target.cancel) target.cancel = this.schedule(() => this.flush(target));
    });
  }

  private schedule(fn: () => void): () => void {
    if (this.maxWaitMs > 0) {
      const timer = setTimeout(fn, this.maxWaitMs);
      return () => clearTimeout(timer);
    }
    const immediate = setImmediate(fn);
    return () => clearImmediate(immediate);
  }

  private flush(lane: Lane<Req, Res>): void {
    lane.cancel?.();
    lane.cancel = undefined;
    const held: Entry<Req, Res>[] = [];
    let batch: Entry<Req, Res>[] = [];
    const blocked = new Set<string>();
    for (const entry of lane.pending) {
      // A key already in flight, or held behind an earlier call of its own, waits its turn.
      if (this.inFlight.has(entry.key) || blocked.has(entry.key)) {
        blocked.add(entry.key);
        held.push(entry);
        continue;
      }
      this.inFlight.add(entry.key);
      batch.push(entry);
      if (batch.length === this.maxItems) {
        this.dispatch(lane, batch);
        batch = [];
      }
    }
    lane.pending = held;
    if (batch.length > 0) this.dispatch(lane, batch);
  }

  private dispatch(lane: Lane<Req, Res>, entries: Entry<Req, Res>[]): void {
    void this.send(lane.call, entries).finally(() => {
      for (const entry of entries) this.inFlight.delete(entry.key);
      for (const other of this.lanes.values()) if (other.pending.length > 0 && !other.cancel) this.flush(other);
    });
  }

  private async send(call: CallOptions, entries: Entry<Req, Res>[]): Promise<void> {
    if (entries.length === 1) return this.sendOne(call, entries[0]!);
    const ids = new Set(entries.map((entry) => entry.requestId));
    let results: Res[];
    try {
      results = await this.senders.batch(
        entries.map((entry) => entry.item),
        { ...call, requestId: ids.size === 1 ? entries[0]!.requestId : newRequestId() },
      );
    } catch (err) {
      if (err instanceof WeirApiError && err.status >= 400 && err.status < 500 && !everyonesRefusal(err.status)) {
        await Promise.all(entries.map((entry) => this.sendOne(call, entry)));
        return;
      }
      for (const entry of entries) entry.reject(err);
      return;
    }
    entries.forEach((entry, i) => entry.resolve(results[i]!));
  }

  private async sendOne(call: CallOptions, entry: Entry<Req, Res>): Promise<void> {
    try {
      entry.resolve(await this.senders.one(entry.item, { ...call, requestId: entry.requestId }));
    } catch (err) {
      entry.reject(err);
    }
  }
}
