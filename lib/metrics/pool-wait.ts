import type pg from "pg";

type ConnectCallback = (err: Error | undefined, client?: pg.PoolClient, done?: (release?: unknown) => void) => void;
type Connect = (callback?: ConnectCallback) => Promise<pg.PoolClient> | void;

export interface PoolWaitObserver {
  /** Seconds from asking the pool for a connection to getting one (or giving up). */
  waited(seconds: number): void;
  /** Requests queued for a connection, this one included, when this one asked (0: it got one at once). */
  queued(waiting: number): void;
}

/**
 * Requests that wait for a connection (to be freed or opened) if `asking` more ask now. pg-pool
 * also counts a request that an idle client takes on the next tick as waiting.
 */
export function queuedWith(pool: pg.Pool, asking = 1): number {
  return Math.max(0, pool.waitingCount + asking - pool.idleCount);
}

const instrumented = new WeakSet<pg.Pool>();

/**
 * Times every checkout of the pool, including the ones pool.query makes for itself, by wrapping
 * the pool's connect from outside: db/client.ts stays the one place that configures the pool.
 * Idempotent per pool.
 */
export function observePoolWait(pool: pg.Pool, observer: PoolWaitObserver): void {
  if (instrumented.has(pool)) return;
  instrumented.add(pool);
  const connect = pool.connect.bind(pool) as Connect;
  const wrapped: Connect = (callback) => {
    const started = performance.now();
    observer.queued(queuedWith(pool));
    const done = () => observer.waited((performance.now() - started) / 1000);
    let result: Promise<pg.PoolClient> | void;
    if (typeof callback === "function") {
      result = connect((err, client, release) => {
        done();
        callback(err, client, release);
      });
    } else {
      result = (connect() as Promise<pg.PoolClient>).then(
        (client) => (done(), client),
        (err: unknown) => {
          done();
          throw err;
        },
      );
    }
    return result;
  };
  pool.connect = wrapped as typeof pool.connect;
}
