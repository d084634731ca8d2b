import { countSecurityEvent, insertSecurityEvent, pruneSecurityEvents } from "@/db/queries/security-events";
import type { DbOrTx } from "@/db/types";
import { setting } from "@/lib/config";

/**
 * Failed and refused password checks: sign-ins by anonymous callers, and a
 * session's own checks (changing the password), which a stolen cookie could
 * use to guess. They are security events, not audit rows: audit_log is
 * append-only and keeps what authenticated people did, so a flood must not
 * bury it. The footprint is bounded:
 * - fields are truncated (an attacker chooses the email);
 * - individual rows stop at the per-address limit; refusals past it
 *   fold into one counted row per address and window;
 * - rows older than WEIR_SECURITY_EVENT_DAYS (30 by default) are pruned.
 */
export type SecurityEventKind = `${"sign_in" | "password_check"}_${"failed" | "rate_limited" | "delayed"}`;

const MAX = { address: 64, account: 120, detail: 200 };
const PRUNE_EVERY = 200;
let sinceLastPrune = 0;

function retentionSeconds(): number {
  const days = setting("WEIR_SECURITY_EVENT_DAYS");
  return (Number.isFinite(days) && days > 0 ? days : 30) * 86_400;
}

/** Cut to a length and strip control characters, so a stored field cannot carry terminal escapes or NULs. */
export function boundedText(value: string, max: number): string {
  let out = "";
  for (const ch of value) {
    if (out.length >= max) break;
    const code = ch.codePointAt(0)!;
    out += code < 0x20 || code === 0x7f ? "?" : ch;
  }
  return out.slice(0, max);
}

function bounded(event: { address: string; account?: string; detail?: string }) {
  return {
    address: boundedText(event.address, MAX.address),
    account: event.account === undefined ? null : boundedText(event.account, MAX.account),
    detail: event.detail === undefined ? null : boundedText(event.detail, MAX.detail),
  };
}

function maybePrune(db: DbOrTx): void {
  if (++sinceLastPrune < PRUNE_EVERY) return;
  sinceLastPrune = 0;
  pruneSecurityEvents(db, retentionSeconds()).catch((err: Error) => console.error(`[weir] pruning security events failed: ${err.message}`));
}

/** One row per event: for attempts inside the address's limit. Never fails the request it records. */
export async function recordSecurityEvent(db: DbOrTx, kind: SecurityEventKind, event: { address: string; account?: string; detail?: string }): Promise<void> {
  try {
    await insertSecurityEvent(db, { kind, ...bounded(event) });
    maybePrune(db);
  } catch (err) {
    console.error(`[weir] recording a ${kind} security event failed: ${(err as Error).message}`);
  }
}

/** One counted row per address and window: for refusals, which an attacker can send without end. */
export async function countSecurityEventInWindow(
  db: DbOrTx,
  kind: SecurityEventKind,
  event: { address: string; account?: string; detail?: string },
  windowSeconds: number,
): Promise<void> {
  try {
    await countSecurityEvent(db, { kind, ...bounded(event) }, windowSeconds);
    maybePrune(db);
  } catch (err) {
    console.error(`[weir] counting a ${kind} security event failed: ${(err as Error).message}`);
  }
}
