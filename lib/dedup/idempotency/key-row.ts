import { refSchema } from "@/lib/validation/common";
import { ValidationError } from "@/lib/errors";
import type { KeyRow } from "./statements";
import type { BeginResult, IdempotencyKeyRef } from "./types";

const HASH = /^[0-9a-f]{64}$/;

/** Library callers get the same guard the HTTP schema gives: a malformed hash never reaches SQL. */
export function assertKeyRef(ref: { scope: string; key: string; requestHash?: string; ref?: string }): void {
  if (ref.scope.length === 0) throw new ValidationError("scope must not be empty", "scope");
  if (ref.key.length === 0 || ref.key.length > 255) throw new ValidationError("key must be 1-255 characters", "key");
  if (ref.requestHash !== undefined && !HASH.test(ref.requestHash)) {
    throw new ValidationError("requestHash must be 64 lowercase hex digits", "requestHash");
  }
  if (ref.ref !== undefined) {
    const checked = refSchema.safeParse(ref.ref);
    if (!checked.success) throw new ValidationError(`ref: ${checked.error.issues[0]!.message}`, "ref");
  }
}

/** complete and release are fenced: the attempt begin handed out is required, never guessed. */
export function assertAttempt(attempt: unknown): void {
  if (typeof attempt !== "number" || !Number.isInteger(attempt) || attempt < 1) {
    throw new ValidationError("attempt is required: the attempt number begin returned (the fencing token)", "attempt");
  }
}

export const toDate = (value: Date | string) => (value instanceof Date ? value : new Date(value));

/** The answer a stored row gives, or null when the key is free to take (absent or takeable). */
export function verdictOf(row: KeyRow | undefined, ref: IdempotencyKeyRef): BeginResult | null {
  if (!row) return null;
  switch (row.verdict) {
    case "started":
      return { outcome: "started", attempt: Number(row.attempt), lockedUntil: toDate(row.locked_until!) };
    case "in_progress":
      return {
        outcome: "in_progress",
        attempt: Number(row.attempt),
        lockedUntil: toDate(row.locked_until!),
        startedAt: toDate(row.created_at),
        firstRef: row.first_ref ?? null,
      };
    case "completed":
      return {
        outcome: "completed",
        attempt: Number(row.attempt),
        response: { status: Number(row.response_status), body: row.response_body ?? "", headers: row.response_headers ?? {} },
        completedAt: toDate(row.completed_at!),
        firstRef: row.first_ref ?? null,
      };
    case "mismatch":
      return { outcome: "mismatch", storedHash: row.stored_hash, requestHash: ref.requestHash, firstRef: row.first_ref ?? null };
    case "retry":
      return null;
  }
}
