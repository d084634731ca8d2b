import { RecentCount } from "@/lib/auth/recent-count";
import { addBounded } from "./bounded-map";

const MAX_CALLERS = 10_000;
const MAX_SECONDS = 30;

/**
 * How long a caller refused at its share should wait: one second, and one more for every
 * `share` refusals it had in the last ten seconds (at most 30). A client that retries at once
 * is told to wait longer each time, so one that honours Retry-After (weir's own client does)
 * costs the node a few refusals a second, not thousands.
 */
export class RefusalBackoff {
  private readonly recent = new Map<string, RecentCount>();

  retryAfter(key: string, share: number): number {
    const count = this.recent.get(key) ?? addBounded(this.recent, key, new RecentCount(), MAX_CALLERS);
    count.add();
    return Math.min(MAX_SECONDS, 1 + Math.floor((count.total - 1) / Math.max(1, share)));
  }
}
