import { runRaw } from "@/db/raw";
import type { DbOrTx } from "@/db/types";

/** The one channel of key changes; the payload names the key (JSON `[scope, key]`, well under 8000 bytes). */
export const KEY_CHANNEL = "weir_idempotency_keys";

export const keyPayload = (scope: string, key: string) => JSON.stringify([scope, key]);

export function parseKeyPayload(payload: string | undefined): { scope: string; key: string } | null {
  try {
    const parsed: unknown = JSON.parse(payload ?? "");
    if (Array.isArray(parsed) && parsed.length === 2 && typeof parsed[0] === "string" && typeof parsed[1] === "string") {
      return { scope: parsed[0], key: parsed[1] };
    }
  } catch {
    // a payload weir did not send: ignored
  }
  return null;
}

/**
 * Wakes the callers waiting for a key. A statement of its own, without a table, so
 * that it runs where the listeners are: on the node its connection reached (on Citus the
 * coordinator, or with WEIR_CITUS_ROUTE_URLS one of the workers, each of which every weir node
 * listens on); inside a caller's transaction it is delivered when that transaction commits.
 */
export async function notifyKeyChanged(db: DbOrTx, scope: string, key: string): Promise<void> {
  await runRaw(db, { name: "weir_idempotency_notify_v1", text: "select pg_notify($1, $2)", values: [KEY_CHANNEL, keyPayload(scope, key)] });
}
