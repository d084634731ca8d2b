import { AsyncLocalStorage } from "node:async_hooks";
import type { IncomingMessage, ServerResponse } from "node:http";

/**
 * Next gives a layout no way to set its response's status, yet an uptime probe must see a
 * console page during a store outage as down. server.ts runs each console request inside
 * a record; the layout marks it when it shows the outage notice instead of the page, and
 * the 200 Next then writes goes out as 503. The record lives on globalThis because the
 * server and Next's bundles load this module separately.
 */
type Outage = { storeDown: boolean };

const HOLDER = Symbol.for("weir.console-outage");
const requests = ((globalThis as Record<symbol, AsyncLocalStorage<Outage>>)[HOLDER] ??= new AsyncLocalStorage<Outage>());

/** Seconds a client should wait before asking again; /api/health says the same. */
const RETRY_AFTER = "5";

/** Called by the console layout when the store is down; outside a wrapped request it does nothing. */
export function markStoreDown(): void {
  const outage = requests.getStore();
  if (outage) outage.storeDown = true;
}

export function withOutageStatus<R extends IncomingMessage>(
  handle: (req: R, res: ServerResponse) => Promise<void>,
): (req: R, res: ServerResponse) => Promise<void> {
  return (req, res) => {
    const outage: Outage = { storeDown: false };
    const writeHead = res.writeHead.bind(res) as (status: number, ...rest: unknown[]) => ServerResponse;
    // Node's implicit header (first write or end) also comes through writeHead.
    res.writeHead = ((status: number, ...rest: unknown[]) => {
      if (!outage.storeDown || status !== 200) return writeHead(status, ...rest);
      res.setHeader("retry-after", RETRY_AFTER);
      res.setHeader("cache-control", "no-store");
      return writeHead(503, ...rest.filter((part) => typeof part !== "string"));
    }) as ServerResponse["writeHead"];
    return requests.run(outage, () => handle(req, res));
  };
}
