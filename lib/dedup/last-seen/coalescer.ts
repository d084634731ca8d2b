import type { DbOrTx } from "@/db/types";
import { StatementCoalescer, type CoalescerOptions } from "../coalescer";
import { decideCounted, type CheckOutcome, type HashedCheck } from "./decide";

export type { CoalescerOptions };

/**
 * Concurrent single checks decided together: one decide statement per batch of
 * distinct keys (see StatementCoalescer). A duplicate is still answered only
 * from that statement's committed read.
 */
export class CheckCoalescer {
  private readonly inner: StatementCoalescer<HashedCheck, CheckOutcome>;

  constructor(getDb: () => Promise<DbOrTx>, options: CoalescerOptions = {}) {
    this.inner = new StatementCoalescer(getDb, decideCounted, options);
  }

  get queued(): number {
    return this.inner.queued;
  }

  submit(item: HashedCheck): Promise<CheckOutcome> {
    return this.inner.submit(item, `${item.serviceId}\u0000${item.messageId}`, item.origin?.caller);
  }
}
