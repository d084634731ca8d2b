/**
 * An adaptive concurrency limit in the manner of Netflix's concurrency-limits Gradient2 (and
 * Envoy's adaptive concurrency filter): the limit on requests in flight follows measured latency.
 * Every window (at least `windowMs` and `minSamples` answers) the window's median latency is
 * compared with a slow moving average of past windows (the no-load latency, as far as this
 * process has seen): while the median stays within `tolerance` times that average the limit
 * grows by its square root, and when it rises above, the limit shrinks in proportion (at most
 * halved per window), smoothed. Between `min` and `max` (WEIR_MAX_IN_FLIGHT).
 *
 * Why not a fixed limit: past capacity, requests pile up inside the process and every answer
 * waits for all of them. A limit low enough to keep answers fast at 150 % of capacity refuses
 * bursts at 75 %; this one stays high while latency is flat and comes down only while it is not.
 */
export interface AdaptiveLimitOptions {
  /** Ceiling, and the starting limit. */
  max: number;
  /** Floor: the limit never goes below it, so a short stall cannot shut the door. */
  min: number;
  /** Latency up to this multiple of the no-load average counts as no queueing. */
  tolerance?: number;
  /** Share of a window's lower limit taken at once (0..1); the rest stays the old limit. */
  smoothing?: number;
  /** A window closes after this many ms once it has minSamples answers. */
  windowMs?: number;
  minSamples?: number;
  /** Windows in the no-load moving average (exponential, 2 / (n + 1)). */
  longWindows?: number;
  now?: () => number;
}

/** Latencies kept per window for its median; past this, later answers overwrite the oldest. */
const WINDOW_CAPACITY = 256;

export interface LimitStep {
  limit: number;
  /** The no-load latency estimate after this window. */
  noLoadMs: number;
}

/**
 * One window's update, pure: Gradient2's arithmetic. The moving average first takes the
 * window in; when it is more than twice the window's median (latency came back down after a
 * long overload), it drops 5 % faster so the limit does not stay low for minutes.
 */
export function nextLimit(
  limit: number,
  noLoadMs: number,
  windowMedianMs: number,
  o: Required<Pick<AdaptiveLimitOptions, "min" | "max" | "tolerance" | "smoothing" | "longWindows">>,
): LimitStep {
  const alpha = 2 / (o.longWindows + 1);
  let average = Number.isFinite(noLoadMs) ? noLoadMs + alpha * (windowMedianMs - noLoadMs) : windowMedianMs;
  if (average / windowMedianMs > 2) average *= 0.95;
  const gradient = Math.max(0.5, Math.min(1, (o.tolerance * average) / Math.max(windowMedianMs, 1e-3)));
  const target = limit * gradient + Math.sqrt(limit);
  // Smoothed (one slow window is not an overload), except growth while the median is back under
  // the average itself: after an overload the limit is at the ceiling again within about 30 such
  // windows instead of 150, so a hiccup at normal load right after a burst is absorbed, not refused.
  // At the edge of tolerance (a sustained overload held by the limit) growth stays smoothed.
  const recovered = windowMedianMs <= average && target > limit;
  const next = recovered ? target : limit * (1 - o.smoothing) + target * o.smoothing;
  return { limit: Math.max(o.min, Math.min(o.max, next)), noLoadMs: average };
}

export class AdaptiveConcurrencyLimit {
  private current: number;
  private noLoadMs = Number.NaN;
  private active = 0;
  private windowStart: number;
  private readonly samples = new Float64Array(WINDOW_CAPACITY);
  private sampleCount = 0;
  private readonly o: Required<AdaptiveLimitOptions>;

  constructor(options: AdaptiveLimitOptions) {
    this.o = { tolerance: 2, smoothing: 0.2, windowMs: 100, minSamples: 10, longWindows: 600, now: () => performance.now(), ...options };
    this.o.min = Math.min(this.o.min, this.o.max);
    this.current = this.o.max;
    this.windowStart = this.o.now();
  }

  /** The whole number of requests allowed in flight now. */
  get limit(): number {
    return Math.floor(this.current);
  }

  get inFlight(): number {
    return this.active;
  }

  /** The moving average the limit compares each window with, in ms (NaN before the first window). */
  get noLoadLatencyMs(): number {
    return this.noLoadMs;
  }

  /** The ceiling the limit starts at and never passes (WEIR_MAX_IN_FLIGHT). */
  get max(): number {
    return this.o.max;
  }

  /** Takes a slot and returns its start time, or undefined when the limit is reached (refuse the request). */
  tryAcquire(): number | undefined {
    if (this.active >= this.limit) return undefined;
    return this.acquire();
  }

  /** Takes a slot whatever the limit, for a caller that decided admission itself (the capacity gate); returns its start time. */
  acquire(): number {
    this.active++;
    return this.o.now();
  }

  /** Gives the slot back; `sample` false leaves the latency out (an answer that did no real work). */
  release(startedAt: number, sample = true): void {
    this.active--;
    const now = this.o.now();
    if (!sample) return;
    this.samples[this.sampleCount++ % WINDOW_CAPACITY] = now - startedAt;
    if (this.sampleCount >= this.o.minSamples && now - this.windowStart >= this.o.windowMs) this.closeWindow(now);
  }

  private closeWindow(now: number): void {
    const kept = this.samples.subarray(0, Math.min(this.sampleCount, WINDOW_CAPACITY)).sort();
    const median = kept[kept.length >> 1]!;
    const step = nextLimit(this.current, this.noLoadMs, median, this.o);
    this.current = step.limit;
    this.noLoadMs = step.noLoadMs;
    this.sampleCount = 0;
    this.windowStart = now;
  }
}
