import { ConflictError } from "@/lib/errors";

/** 409 in_progress: another caller holds the key; Retry-After says when its lock expires (at least 1 s). */
export class KeyInProgressError extends ConflictError {
  readonly retryAfterSeconds: number;

  constructor(key: string, held: { attempt: number; startedAt: Date; lockedUntil: Date; firstRef?: string | null }, waited: boolean, now = Date.now()) {
    super(
      `idempotency key ${key} is in progress (attempt ${held.attempt}); retry after its lock expires at ${held.lockedUntil.toISOString()}`,
      "in_progress",
      { attempt: held.attempt, startedAt: held.startedAt.toISOString(), lockedUntil: held.lockedUntil.toISOString(), waited, firstRef: held.firstRef ?? null },
    );
    this.retryAfterSeconds = Math.max(1, Math.ceil((held.lockedUntil.getTime() - now) / 1000));
  }
}
