import { addBounded } from "./bounded-map";

/** Buckets kept at most; a token past this starts from a full bucket again (never refused for it). */
const MAX_BUCKETS = 10_000;

interface Bucket {
  tokens: number;
  at: number;
}

/**
 * Requests per second per API token on this node, as token buckets: each holds one second of
 * requests (at least one) and refills continuously, so a token may burst to its rate and no
 * further. In memory, per node: a limit in the store would add a write to every request.
 */
export class RateQuotas {
  private readonly buckets = new Map<string, Bucket>();

  constructor(private readonly now: () => number = () => performance.now()) {}

  /** Spends one request of `id`'s rate; returns 0 when admitted, else the whole seconds until one is back. */
  take(id: string, perSecond: number): number {
    const now = this.now();
    const burst = Math.max(1, perSecond);
    const bucket = this.buckets.get(id) ?? addBounded(this.buckets, id, { tokens: burst, at: now }, MAX_BUCKETS);
    bucket.tokens = Math.min(burst, bucket.tokens + ((now - bucket.at) / 1000) * perSecond);
    bucket.at = now;
    if (bucket.tokens >= 1) {
      bucket.tokens -= 1;
      return 0;
    }
    return Math.max(1, Math.ceil((1 - bucket.tokens) / perSecond));
  }
}
