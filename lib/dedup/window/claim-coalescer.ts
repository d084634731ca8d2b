import type { DbOrTx } from "@/db/types";
import { StatementCoalescer, type CoalescerOptions } from "../coalescer";
import { claimDistinctCounted, type ClaimOutcome } from "./claim";
import type { ClaimKey } from "./claim-statement";

/**
 * Concurrent single claims decided together: one claim statement per batch of
 * distinct keys (see StatementCoalescer). Each claim is still linearizable: a
 * duplicate comes only from that statement's read of a committed record.
 */
export class ClaimCoalescer {
  private readonly inner: StatementCoalescer<ClaimKey, ClaimOutcome>;

  constructor(getDb: () => Promise<DbOrTx>, options: CoalescerOptions = {}) {
    this.inner = new StatementCoalescer(getDb, claimDistinctCounted, options);
  }

  get queued(): number {
    return this.inner.queued;
  }

  submit(item: ClaimKey): Promise<ClaimOutcome> {
    return this.inner.submit(item, `${item.consumerGroup}\u0000${item.messageId}`, item.origin?.caller);
  }
}
