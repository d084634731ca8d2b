import { forgetFailures, noteFailures, readFailures } from "@/db/queries/auth-backoff";
import type { DbOrTx } from "@/db/types";

export interface BackoffPolicy {
  /** Failures on an account before any wait. */
  freeFailures: number;
  maxDelaySeconds: number;
  /** A count that has seen no failure for this long starts again from zero. */
  quietSeconds: number;
}

/**
 * A growing delay per account instead of a lockout. The account's failures,
 * from every address, set the delay (doubling past `freeFailures`, capped); an
 * address must wait that long after its own last failure on the account. An
 * address that has not failed on the account is not held back, so an attacker
 * guessing from elsewhere cannot lock the real user out during an incident,
 * while every guessing address slows down as the account's failures grow.
 */
export function delayFor(failures: number, policy: BackoffPolicy): number {
  if (failures <= policy.freeFailures) return 0;
  return Math.min(policy.maxDelaySeconds, 2 ** (failures - policy.freeFailures));
}

const accountKey = (email: string) => `login:failures:${email}`;
const pairKey = (email: string, address: string) => `login:failures:${email}|${address}`;

/** Seconds this address must still wait before trying this account again; 0 when it may try now. */
export async function secondsToWait(db: DbOrTx, email: string, address: string, policy: BackoffPolicy): Promise<number> {
  const found = await readFailures(db, [accountKey(email), pairKey(email, address)], policy.quietSeconds);
  const own = found.get(pairKey(email, address));
  if (!own) return 0;
  const wait = delayFor(found.get(accountKey(email))?.failures ?? 0, policy) - own.secondsSince;
  return wait > 0 ? Math.ceil(wait) : 0;
}

export async function noteFailedSignIn(db: DbOrTx, email: string, address: string, policy: BackoffPolicy): Promise<void> {
  await noteFailures(db, [accountKey(email), pairKey(email, address)], policy.quietSeconds);
}

/** A right password clears this address's wait; the account's count decays on its own, so an attack keeps paying. */
export async function noteSignedIn(db: DbOrTx, email: string, address: string): Promise<void> {
  await forgetFailures(db, pairKey(email, address));
}
