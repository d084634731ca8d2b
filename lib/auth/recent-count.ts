const SECONDS = 10;

/** Events counted over the last ten seconds, in one-second buckets: what /api/health reports as "recent". */
export class RecentCount {
  private readonly counts = new Float64Array(SECONDS);
  private readonly seconds = new Float64Array(SECONDS).fill(-1);

  constructor(private readonly now: () => number = Date.now) {}

  add(): void {
    const second = Math.floor(this.now() / 1000);
    const at = second % SECONDS;
    if (this.seconds[at] !== second) {
      this.seconds[at] = second;
      this.counts[at] = 0;
    }
    this.counts[at] = this.counts[at]! + 1;
  }

  /** Events in the last ten seconds (the current one included). */
  get total(): number {
    const second = Math.floor(this.now() / 1000);
    let sum = 0;
    for (let i = 0; i < SECONDS; i++) if (second - this.seconds[i]! < SECONDS) sum += this.counts[i]!;
    return sum;
  }
}
