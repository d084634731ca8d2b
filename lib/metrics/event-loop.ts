import { monitorEventLoopDelay, type Histogram as NativeHistogram } from "node:perf_hooks";
import type { Histogram } from "prom-client";

/** How often the loop is sampled; node reports each sample as the whole interval, so this is subtracted. */
const RESOLUTION_MS = 10;
// Draining often keeps each drain small (about 500 samples) however rarely Prometheus scrapes.
const DRAIN_EVERY_MS = 5000;

/**
 * Moves what the native sampler recorded since the last drain into the Prometheus histogram,
 * one observation per sample (the value at its rank, exact to the HDR histogram's precision),
 * less the sampling interval that node counts into every sample.
 */
export function drainEventLoopDelay(source: NativeHistogram, target: Histogram): number {
  const count = source.count;
  for (let rank = 1; rank <= count; rank++) {
    const nanoseconds = source.percentile((100 * rank) / count);
    target.observe(Math.max(0, nanoseconds / 1e6 - RESOLUTION_MS) / 1000);
  }
  source.reset();
  return count;
}

/**
 * Samples the event loop's delay for as long as the process lives: how late timers and I/O
 * callbacks ran, which every request in flight waits for too. The timers never keep the
 * process alive.
 */
export function watchEventLoop(target: Histogram): () => number {
  const source = monitorEventLoopDelay({ resolution: RESOLUTION_MS });
  source.enable();
  const drain = () => drainEventLoopDelay(source, target);
  setInterval(drain, DRAIN_EVERY_MS).unref();
  return drain;
}
