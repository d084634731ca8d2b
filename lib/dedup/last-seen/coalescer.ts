import type { DbOrTx } from "@/db/types";
import { StoreUnavailableError } from "@/lib/errors";
import { decideDistinct, type CheckOutcome, type HashedCheck } from "./decide";

interface Pending {
  item: HashedCheck;
  key: string;
  resolve(outcome: CheckOutcome): void;
  reject(err: unknown): void;
}

export interface CoalescerOptions {
  /** Most checks decided by one statement. */
  maxBatch?: number;
  /** Statements running at once; each holds one pool connection. */
  maxInFlight?: number;
  /** Checks allowed to wait; past this, new checks fail fast with 503 instead of queueing without bound. */
  maxQueued?: number;
}

/**
 * Turns concurrent single checks into batch statements. A check waits at most
 * for the statements already running; while they run, new checks pile up and
 * leave together in the next statement, so throughput grows with load instead
 * of the pool queue. Keys within one statement are distinct; a repeated key
 * waits for the next statement.
 */
export class CheckCoalescer {
  private queue: Pending[] = [];
  private inFlight = 0;
  private scheduled = false;
  private readonly maxBatch: number;
  private readonly maxInFlight: number;
  private readonly maxQueued: number;

  constructor(
    private readonly getDb: () => Promise<DbOrTx>,
    options: CoalescerOptions = {},
  ) {
    this.maxBatch = options.maxBatch ?? 256;
    this.maxInFlight = options.maxInFlight ?? 8;
    this.maxQueued = options.maxQueued ?? 20_000;
  }

  get queued(): number {
    return this.queue.length;
  }

  submit(item: HashedCheck): Promise<CheckOutcome> {
    if (this.queue.length >= this.maxQueued) return Promise.reject(new StoreUnavailableError(1));
    return new Promise((resolve, reject) => {
      this.queue.push({ item, key: `${item.serviceId}\u0000${item.messageId}`, resolve, reject });
      this.schedule();
    });
  }

  private schedule(): void {
    if (this.scheduled || this.inFlight >= this.maxInFlight) return;
    this.scheduled = true;
    // setImmediate lets every request parsed in this turn of the event loop join the statement.
    setImmediate(() => {
      this.scheduled = false;
      while (this.queue.length > 0 && this.inFlight < this.maxInFlight) this.runNext();
    });
  }

  private takeBatch(): Pending[] {
    const batch: Pending[] = [];
    const keys = new Set<string>();
    const rest: Pending[] = [];
    for (const pending of this.queue) {
      if (batch.length < this.maxBatch && !keys.has(pending.key)) {
        keys.add(pending.key);
        batch.push(pending);
      } else {
        rest.push(pending);
      }
    }
    this.queue = rest;
    return batch;
  }

  private runNext(): void {
    const batch = this.takeBatch();
    if (batch.length === 0) return;
    this.inFlight++;
    this.getDb()
      .then((db) => decideDistinct(db, batch.map((p) => p.item)))
      .then(
        (outcomes) => batch.forEach((pending, i) => pending.resolve(outcomes[i]!)),
        (err) => batch.forEach((pending) => pending.reject(err)),
      )
      .finally(() => {
        this.inFlight--;
        if (this.queue.length > 0) this.schedule();
      });
  }
}
