import pg from "pg";
import type { Store } from "@/db/client";
import { KEY_CHANNEL } from "./notify";
import { setting } from "@/lib/config";

/** One LISTEN on the key channel; `close` stops it. */
export interface NotificationSource {
  listen(onPayload: (payload: string) => void, onLost: () => void): Promise<() => Promise<void>>;
}

/** One session listening on the key channel at `url` (the pool's own address when undefined). */
async function listenAt(pool: pg.Pool, url: string | undefined, onPayload: (payload: string) => void, lose: () => void): Promise<pg.Client> {
  const client = new pg.Client({ ...pool.options, ...(url ? { connectionString: url } : {}), application_name: "weir-listener" });
  client.on("error", lose);
  client.on("end", lose);
  client.on("notification", (message) => {
    if (message.channel === KEY_CHANNEL && message.payload !== undefined) onPayload(message.payload);
  });
  try {
    await client.connect();
    await client.query(`listen ${KEY_CHANNEL}`);
    return client;
  } catch (err) {
    await client.end().catch(() => undefined);
    throw err;
  }
}

/**
 * Dedicated pg Clients (not pool connections: LISTEN belongs to a session), one per address. Behind
 * PgBouncer in transaction mode, WEIR_LISTEN_DATABASE_URL points the one at a session. With
 * WEIR_CITUS_ROUTE_URLS a completion's NOTIFY runs on whichever worker its connection reached
 * (NOTIFY stays on its node), so the node listens on every one of them; losing any is losing the
 * listener (every waiter reads its key again, the next wait listens anew).
 */
function postgresSource(pool: pg.Pool, urls: readonly (string | undefined)[]): NotificationSource {
  return {
    async listen(onPayload, onLost) {
      let lost = false;
      const lose = () => {
        if (lost) return;
        lost = true;
        onLost();
      };
      const opened = await Promise.allSettled(urls.map((url) => listenAt(pool, url, onPayload, lose)));
      const clients = opened.flatMap((result) => (result.status === "fulfilled" ? [result.value] : []));
      const endAll = () => Promise.all(clients.map((client) => client.end().catch(() => undefined)));
      const failed = opened.find((result) => result.status === "rejected");
      if (failed) {
        lost = true;
        await endAll();
        throw failed.reason;
      }
      return async () => {
        lost = true;
        await endAll();
      };
    },
  };
}

interface PgliteLike {
  listen(channel: string, callback: (payload: string) => void): Promise<() => Promise<void>>;
}

/** The embedded store delivers NOTIFY to listeners of the same process: no connection to open. */
function pgliteSource(client: PgliteLike): NotificationSource {
  return {
    async listen(onPayload) {
      const unlisten = await client.listen(KEY_CHANNEL, onPayload);
      return () => unlisten();
    },
  };
}

/** Where a store's key notifications come from, and the object they are shared by (one listener per store). */
export function notificationSourceOf(store: Store): { owner: object; source: NotificationSource } {
  const routed = setting("WEIR_CITUS_ROUTE_URLS");
  if (store.hotPool && routed.length > 0) return { owner: store.hotPool, source: postgresSource(store.hotPool, routed) };
  if (store.pool) return { owner: store.pool, source: postgresSource(store.pool, [setting("WEIR_LISTEN_DATABASE_URL")]) };
  const client = (store.db as unknown as { session: { client: PgliteLike } }).session.client;
  return { owner: client, source: pgliteSource(client) };
}
