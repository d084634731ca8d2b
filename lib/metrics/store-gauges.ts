import { Gauge } from "prom-client";
import type { Store } from "@/db/client";
import { observePoolWait, queuedWith } from "./pool-wait";
import { metrics } from "./registry";

type StoreSource = () => Promise<Store>;

const PROBE_TIMEOUT_MS = 500;

// One source per process (the latest bound API); gauges read it on every scrape.
const HANDLE = Symbol.for("weir.metrics.storeSource");
const holder = ((globalThis as Record<symbol, { source?: StoreSource; waitingPeak?: number }>)[HANDLE] ??= {});

/** The pool decisions wait for: the workers' with WEIR_CITUS_ROUTE_URLS (db/client.ts), else the one pool. */
const decisionPool = (store: Store | undefined) => store?.hotPool ?? store?.pool;

/** Times the pool's checkouts from the first moment the store is open (see pool-wait.ts). */
function watchPool(store: Store | undefined): Store | undefined {
  const pool = decisionPool(store);
  if (pool) {
    observePoolWait(pool, {
      waited: (seconds) => metrics.poolWait.observe(seconds),
      queued: (waiting) => void (holder.waitingPeak = Math.max(holder.waitingPeak ?? 0, waiting)),
    });
  }
  return store;
}

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T | undefined> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<undefined>((resolve) => (timer = setTimeout(() => resolve(undefined), ms)));
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

/** The open store, or undefined while it is unreachable; a scrape never waits for a connect timeout. */
async function currentStore(): Promise<Store | undefined> {
  const source = holder.source;
  if (!source) return undefined;
  return withTimeout(source(), PROBE_TIMEOUT_MS).then(watchPool, () => undefined);
}

function createStoreGauges() {
  const registers = [metrics.registry];
  const up = new Gauge({
    name: "weir_store_up",
    help: "1 when the store answered a ping during this scrape, 0 when it did not (weir answers 503 then)",
    registers,
    async collect() {
      const store = await currentStore();
      const alive = store ? await withTimeout(store.ping().then(() => true), PROBE_TIMEOUT_MS).catch(() => false) : false;
      this.set(alive ? 1 : 0);
    },
  });
  const connections = new Gauge({
    name: "weir_db_pool_connections",
    help: "PostgreSQL pool connections by state (total, idle, active) and requests waiting for one (waiting)",
    labelNames: ["state"] as const,
    registers,
    async collect() {
      const pool = decisionPool(await currentStore());
      if (!pool) return this.reset();
      this.set({ state: "total" }, pool.totalCount);
      this.set({ state: "idle" }, pool.idleCount);
      this.set({ state: "active" }, pool.totalCount - pool.idleCount);
      this.set({ state: "waiting" }, pool.waitingCount);
    },
  });
  const max = new Gauge({
    name: "weir_db_pool_max",
    help: "Most connections the PostgreSQL pool may open",
    registers,
    async collect() {
      const pool = decisionPool(await currentStore());
      if (!pool) return this.reset();
      this.set(pool.options.max ?? 10);
    },
  });
  const waitingPeak = new Gauge({
    name: "weir_db_pool_waiting_peak",
    help: "Most requests waiting for a pool connection at once since the previous scrape (the waiting gauge sees one instant)",
    registers,
    async collect() {
      const pool = decisionPool(await currentStore());
      if (!pool) return this.reset();
      this.set(Math.max(holder.waitingPeak ?? 0, queuedWith(pool, 0)));
      holder.waitingPeak = 0;
    },
  });
  return { up, connections, max, waitingPeak };
}

const GAUGES = Symbol.for("weir.metrics.storeGauges");
const globals = globalThis as Record<symbol, ReturnType<typeof createStoreGauges>>;

/** Reports the reachability and pool usage of this store on every scrape. */
export function watchStore(source: StoreSource): void {
  holder.source = source;
  globals[GAUGES] ??= createStoreGauges();
  // The store opens at boot: instrument its pool before traffic arrives, not at the first scrape.
  source().then(watchPool, () => undefined);
}
