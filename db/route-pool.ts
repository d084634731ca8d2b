import pg from "pg";

/**
 * The client class of a pool over several addresses (Citus workers, WEIR_CITUS_ROUTE_URLS): each
 * new connection goes to the next address in turn, so a node's connections spread evenly over the
 * workers, and a worker that refuses one is skipped by the next.
 *
 * What a key's work goes through when its shard's worker is not known (db/shard-router.ts sends
 * it straight there otherwise), and what has no key: every worker has the cluster's metadata
 * (Citus 11+ syncs it), so any of them plans a key's statement as a router query, or delegates a
 * distributed function call to the shard's worker, and answers exactly as the coordinator would,
 * one hop later.
 */
export function roundRobinClient(urls: readonly string[]): typeof pg.Client {
  let next = 0;
  return class RoundRobinClient extends pg.Client {
    constructor(options: pg.ClientConfig) {
      // The address replaces the pool's connection string; timeouts, types and the application name stay.
      super({ ...options, connectionString: urls[next++ % urls.length] });
    }
  };
}

/** Set on a failure to reach the coordinator of a node whose hot path is on the workers (see coordinatorClient). */
export const COORDINATOR_UNREACHABLE = Symbol.for("weir.coordinator-unreachable");

function markCoordinator<E>(err: E): E {
  if (err instanceof Error) Object.assign(err, { [COORDINATOR_UNREACHABLE]: true });
  return err;
}

/**
 * A pool's client class whose failures to open a connection first go to `onFailure` (which may mark
 * the error), then on to the pool as they were.
 */
function clientWatchingConnect(onFailure: (err: Error) => void): typeof pg.Client {
  const seen = <E>(err: E): E => {
    if (err instanceof Error) onFailure(err);
    return err;
  };
  return class WatchedClient extends pg.Client {
    override connect(): Promise<pg.Client>;
    override connect(callback: (err: Error) => void): void;
    override connect(callback?: (err: Error) => void): Promise<pg.Client> | void {
      if (callback) return super.connect((err: Error) => callback(err && seen(err)));
      return super.connect().catch((err: unknown) => {
        throw seen(err);
      });
    }
  };
}

/**
 * The client class of the coordinator's pool when the hot path is on the workers: a connection it
 * cannot open is marked, so that the refused console write can say that the coordinator is down
 * and checks are not (lib/http/respond.ts), rather than that the whole store is.
 */
export function coordinatorClient(): typeof pg.Client {
  return clientWatchingConnect(markCoordinator);
}

/**
 * The client class of a worker's own pool (db/shard-router.ts): a connection it cannot open calls
 * `onFailure` (the placements are read again: the worker may have left, its shards moved).
 */
export function watchedClient(onFailure: () => void): typeof pg.Client {
  return clientWatchingConnect(() => onFailure());
}
