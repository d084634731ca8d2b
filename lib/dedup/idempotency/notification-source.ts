import pg from "pg";
import type { Store } from "@/db/client";
import { KEY_CHANNEL } from "./notify";
import { setting } from "@/lib/config";

/** One LISTEN on the key channel; `close` stops it. */
export interface NotificationSource {
  listen(onPayload: (payload: string) => void, onLost: () => void): Promise<() => Promise<void>>;
}

/**
 * A dedicated pg Client (not a pool connection: LISTEN belongs to a session). Behind
 * PgBouncer in transaction mode, WEIR_LISTEN_DATABASE_URL points it at a session.
 */
function postgresSource(pool: pg.Pool): NotificationSource {
  return {
    async listen(onPayload, onLost) {
      const url = setting("WEIR_LISTEN_DATABASE_URL");
      const client = new pg.Client({ ...pool.options, ...(url ? { connectionString: url } : {}), application_name: "weir-listener" });
      let lost = false;
      const lose = () => {
        if (lost) return;
        lost = true;
        onLost();
      };
      client.on("error", lose);
      client.on("end", lose);
      client.on("notification", (message) => {
        if (message.channel === KEY_CHANNEL && message.payload !== undefined) onPayload(message.payload);
      });
      try {
        await client.connect();
        await client.query(`listen ${KEY_CHANNEL}`);
      } catch (err) {
        lost = true;
        await client.end().catch(() => undefined);
        throw err;
      }
      return async () => {
        lost = true;
        await client.end().catch(() => undefined);
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
  if (store.pool) return { owner: store.pool, source: postgresSource(store.pool) };
  const client = (store.db as unknown as { session: { client: PgliteLike } }).session.client;
  return { owner: client, source: pgliteSource(client) };
}
