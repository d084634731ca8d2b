import type { Store } from "@/db/client";
import { asStoreError } from "@/db/unavailable";
import { FairShare } from "@/lib/auth/fair-share";
import { RecentCount } from "@/lib/auth/recent-count";
import { notificationSourceOf, type NotificationSource } from "./notification-source";
import { keyPayload, parseKeyPayload } from "./notify";
import { setting } from "@/lib/config";

// The listening connection is closed after this long without waiters, so an idle node holds none.
const IDLE_CLOSE_MS = 30_000;

/** One caller waiting for one key: `next` resolves on a change of the key, a timeout or an abort. */
export interface KeySubscription {
  next(timeoutMs: number, signal?: AbortSignal): Promise<void>;
  close(): void;
}

class Waiter implements KeySubscription {
  private pending = false;
  private wake: (() => void) | null = null;

  constructor(private readonly detach: (waiter: Waiter) => void) {}

  notify(): void {
    if (this.wake) this.wake();
    else this.pending = true;
  }

  next(timeoutMs: number, signal?: AbortSignal): Promise<void> {
    if (this.pending || signal?.aborted) {
      this.pending = false;
      return Promise.resolve();
    }
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        signal?.removeEventListener("abort", done);
        this.wake = null;
        resolve();
      };
      const timer = setTimeout(done, timeoutMs);
      signal?.addEventListener("abort", done, { once: true });
      this.wake = done;
    });
  }

  close(): void {
    this.detach(this);
  }
}

/** Who waits, for the per-credential share: the caller's id and, for a token with its own limit, that limit. */
export interface WaiterHolder {
  id: string;
  share?: number | null;
}

/**
 * One LISTEN per node (per store), fanned out to the callers waiting for keys.
 * Bounded: past `maxWaiters`, or past a holder's share of them (a quarter by default,
 * lib/auth/fair-share.ts), a subscription is refused and the caller answers at once.
 */
export class KeyListener {
  private readonly waiters = new Map<string, Set<Waiter>>();
  private count = 0;
  private connection: Promise<() => Promise<void>> | null = null;
  private idleTimer: NodeJS.Timeout | null = null;
  private readonly shares: FairShare;
  private readonly refused = new RecentCount();

  constructor(
    private readonly source: NotificationSource,
    readonly maxWaiters: number,
    perHolder?: number,
  ) {
    this.shares = new FairShare({ capacity: () => maxWaiters, share: () => perHolder });
  }

  get waiting(): number {
    return this.count;
  }

  /** Waits refused in the last ten seconds because the node held its maximum (not a holder's own share). */
  get refusedFull(): number {
    return this.refused.total;
  }

  /** Registers a waiter for the key, or null when the node holds `maxWaiters` or the holder its share of them. */
  subscribe(scope: string, key: string, holder?: WaiterHolder): KeySubscription | null {
    const admission = holder ? this.shares.tryAcquire(holder.id, holder.share) : this.count >= this.maxWaiters ? "full" : "admitted";
    if (admission !== "admitted") {
      if (admission === "full") this.refused.add();
      return null;
    }
    const id = keyPayload(scope, key);
    const waiter: Waiter = new Waiter((w) => {
      if (holder) this.shares.release(holder.id);
      this.detach(id, w);
    });
    const set = this.waiters.get(id) ?? new Set<Waiter>();
    set.add(waiter);
    this.waiters.set(id, set);
    this.count++;
    if (this.idleTimer) clearTimeout(this.idleTimer);
    this.idleTimer = null;
    return waiter;
  }

  /** Resolves once LISTEN is active: a key read after this cannot miss a later change. */
  async ready(): Promise<void> {
    this.connection ??= this.source.listen((payload) => this.deliver(payload), () => this.lose());
    try {
      await this.connection;
    } catch (err) {
      this.connection = null;
      throw asStoreError(err);
    }
  }

  private deliver(payload: string): void {
    const ref = parseKeyPayload(payload);
    if (!ref) return;
    for (const waiter of this.waiters.get(keyPayload(ref.scope, ref.key)) ?? []) waiter.notify();
  }

  /** The connection dropped: notifications may have been missed, so every waiter reads its key again. */
  private lose(): void {
    this.connection = null;
    for (const set of this.waiters.values()) for (const waiter of set) waiter.notify();
  }

  private detach(id: string, waiter: Waiter): void {
    const set = this.waiters.get(id);
    if (!set?.delete(waiter)) return;
    this.count--;
    if (set.size === 0) this.waiters.delete(id);
    if (this.count === 0 && this.connection) {
      this.idleTimer = setTimeout(() => void this.close(), IDLE_CLOSE_MS);
      this.idleTimer.unref();
    }
  }

  async close(): Promise<void> {
    const connection = this.connection;
    this.connection = null;
    if (connection) await (await connection.catch(() => async () => undefined))();
  }
}

const listeners = new WeakMap<object, KeyListener>();

/**
 * The node's listener for a store; WEIR_IDEMPOTENCY_MAX_WAITERS (default 1000) bounds its waiters,
 * WEIR_IDEMPOTENCY_MAX_WAITERS_PER_CREDENTIAL (default a quarter of them) one caller's.
 */
export function keyListenerFor(store: Store): KeyListener {
  const { owner, source } = notificationSourceOf(store);
  let listener = listeners.get(owner);
  if (!listener) {
    listener = new KeyListener(source, setting("WEIR_IDEMPOTENCY_MAX_WAITERS"), setting("WEIR_IDEMPOTENCY_MAX_WAITERS_PER_CREDENTIAL"));
    listeners.set(owner, listener);
  }
  return listener;
}

/** The listener of a store if this node has one (health reads it; it opens nothing). */
export function existingKeyListener(store: Store): KeyListener | undefined {
  return listeners.get(notificationSourceOf(store).owner);
}
