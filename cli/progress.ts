import cliProgress from "cli-progress";

export interface Progress {
  update(value: number, payload?: Record<string, unknown>): void;
  setTotal(total: number): void;
  stop(): void;
}

/**
 * A progress bar on stderr, so stdout stays clean for data. It draws only on a
 * terminal (cli-progress prints nothing to pipes and files); `quiet` turns it off.
 */
export function progressBar(label: string, total: number, options: { quiet?: boolean; unit?: string } = {}): Progress {
  if (options.quiet) return { update() {}, setTotal() {}, stop() {} };
  const unit = options.unit ?? "rows";
  const bar = new cliProgress.SingleBar(
    {
      format: `${label} [{bar}] {percentage}% | {value}/{total} ${unit} | {duration_formatted} elapsed, ETA {eta_formatted}`,
      stream: process.stderr,
      hideCursor: true,
      clearOnComplete: false,
      etaBuffer: 20,
    },
    cliProgress.Presets.shades_classic,
  );
  bar.start(Math.max(total, 1), 0);
  return {
    update: (value, payload) => bar.update(value, payload),
    setTotal: (value) => bar.setTotal(Math.max(value, 1)),
    stop: () => bar.stop(),
  };
}

/** A counter for work whose total is unknown until it ends (cleanup): value and rate, no percentage. */
export function counterBar(label: string, options: { quiet?: boolean; unit?: string } = {}): Progress {
  if (options.quiet) return { update() {}, setTotal() {}, stop() {} };
  const bar = new cliProgress.SingleBar(
    { format: `${label} {value} ${options.unit ?? "rows"} | {batches} batches | {duration_formatted}`, stream: process.stderr, hideCursor: true },
    cliProgress.Presets.shades_classic,
  );
  bar.start(0, 0, { batches: 0 });
  return {
    update: (value, payload) => {
      bar.setTotal(value);
      bar.update(value, payload);
    },
    setTotal: () => {},
    stop: () => bar.stop(),
  };
}
