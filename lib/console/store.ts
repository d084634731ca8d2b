import { getStore, hotDb } from "@/db/client";
import type { DbOrTx } from "@/db/types";
import { isStoreUnavailable } from "@/db/unavailable";

export type Loaded<T> = { ok: true; data: T } | { ok: false; reason: "store_unavailable" };

/**
 * Runs a console read against the store. An unreachable store is an expected
 * state with its own banner, not a crash: it comes back as a value.
 */
export async function withStore<T>(load: (db: DbOrTx) => Promise<T>): Promise<Loaded<T>> {
  try {
    const { db } = await getStore();
    return { ok: true, data: await load(db) };
  } catch (err) {
    if (isStoreUnavailable(err)) return { ok: false, reason: "store_unavailable" };
    throw err;
  }
}

/** The store as console mutations see it; callers map its failures once (action-result). */
export async function consoleDb(): Promise<DbOrTx> {
  return (await getStore()).db;
}

/** Where a console mutation wakes the node's waiting begins: the hot path's connections (Store.hot). */
export async function consoleNotifyDb(): Promise<DbOrTx> {
  return hotDb(await getStore());
}

/**
 * Whether the store answers within `timeoutMs`; the layout shows a banner when it does not. With the
 * hot path on the Citus workers, the console's store is the coordinator: that is what is asked.
 */
export async function storeReachable(timeoutMs = 2500): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<false>((resolve) => (timer = setTimeout(() => resolve(false), timeoutMs)));
  const ping = getStore()
    .then((store) => (store.pingCoordinator ?? store.ping)())
    .then(() => true)
    .catch(() => false);
  try {
    return await Promise.race([ping, timeout]);
  } finally {
    clearTimeout(timer);
  }
}
