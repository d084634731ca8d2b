import { drizzle } from "drizzle-orm/node-postgres";
import pg from "pg";
import * as schema from "@/db/schema";
import type { DbOrTx } from "@/db/types";
import { sleep } from "./fixtures";

/**
 * One database session of an isolation-style test: a connection of its own,
 * explicit BEGIN / COMMIT / ROLLBACK, and a drizzle handle over that very
 * connection so engine functions run inside the open transaction (library mode).
 */
export class Session {
  private constructor(
    readonly name: string,
    readonly client: pg.Client,
    readonly db: DbOrTx,
    readonly pid: number,
  ) {}

  static async open(url: string, name: string): Promise<Session> {
    const client = new pg.Client({ connectionString: url, application_name: `faults-${name}` });
    client.on("error", () => undefined);
    await client.connect();
    const { rows } = await client.query<{ pid: number }>("select pg_backend_pid() as pid");
    return new Session(name, client, drizzle({ client, schema }), rows[0]!.pid);
  }

  begin = () => this.client.query("begin").then(() => undefined);
  commit = () => this.client.query("commit").then(() => undefined);
  rollback = () => this.client.query("rollback").then(() => undefined);
  close = () => this.client.end().catch(() => undefined);
}

/** A promise whose settlement can be looked at without awaiting it. */
export function track<T>(promise: Promise<T>) {
  const state: { settled: boolean; value?: T; error?: unknown; promise: Promise<T> } = { settled: false, promise };
  promise.then(
    (value) => Object.assign(state, { settled: true, value }),
    (error) => Object.assign(state, { settled: true, error }),
  );
  return state;
}

const LOCAL_WAIT = "select wait_event_type = 'Lock' as waiting from pg_stat_activity where pid = $1";
// On Citus the session's statement waits on a worker, for a lock a worker backend of the other
// session holds: citus_lock_waits names both by the global pid of the coordinator backend.
const CITUS_WAIT = `select exists (select 1 from citus_lock_waits
  where waiting_gpid = citus_calculate_gpid(citus_coordinator_nodeid(), $1)) as waiting`;

const citusObservers = new WeakMap<pg.Client, Promise<boolean>>();
function onCitus(observer: pg.Client): Promise<boolean> {
  let answer = citusObservers.get(observer);
  if (!answer) {
    answer = observer
      .query<{ citus: boolean }>("select exists (select 1 from pg_extension where extname = 'citus') as citus")
      .then(({ rows }) => rows[0]?.citus === true);
    citusObservers.set(observer, answer);
  }
  return answer;
}

/**
 * Waits until `pending` settles or the backend `pid` is seen waiting for a
 * lock (pg_stat_activity; citus_lock_waits on Citus), whichever comes first: "blocked" is observed, not
 * inferred from a timeout.
 */
export async function settleOrBlock(observer: pg.Client, pid: number, pending: { settled: boolean }, timeoutMs = 10_000): Promise<"settled" | "blocked"> {
  const started = Date.now();
  const waitQuery = (await onCitus(observer)) ? CITUS_WAIT : LOCAL_WAIT;
  for (;;) {
    if (pending.settled) return "settled";
    const { rows } = await observer.query<{ waiting: boolean }>(waitQuery, [pid]);
    if (pending.settled) return "settled";
    if (rows[0]?.waiting) return "blocked";
    if (Date.now() - started > timeoutMs) throw new Error(`session ${pid} neither finished nor blocked within ${timeoutMs} ms`);
    await sleep(2);
  }
}

/**
 * Runs `work` in a drizzle transaction on `db` and keeps it open until the
 * caller commits or rolls it back, for verbs that open their own transaction
 * (nested into a savepoint here, as library callers do).
 */
export async function heldTransaction(db: DbOrTx, work: (tx: DbOrTx) => Promise<void>) {
  let finish!: (commit: boolean) => void;
  const decided = new Promise<boolean>((resolve) => (finish = resolve));
  let ready!: () => void;
  let failed!: (err: unknown) => void;
  const started = new Promise<void>((resolve, reject) => ((ready = resolve), (failed = reject)));
  const done = db
    .transaction(async (tx) => {
      await work(tx);
      ready();
      if (!(await decided)) tx.rollback();
    })
    .catch((err: Error) => {
      failed(err);
      if (!/rollback/i.test(err.message)) throw err;
    });
  await started;
  return {
    commit: async () => (finish(true), await done),
    rollback: async () => (finish(false), await done),
  };
}
