/** Exit codes, stable for scripts (also listed in `weir --help`). */
export const EXIT = {
  ok: 0,
  failed: 1,
  usage: 2,
  unavailable: 3,
  refused: 4,
} as const;

/** A failure the CLI explains itself: the message is shown as is. */
export class CliError extends Error {
  constructor(
    message: string,
    readonly exitCode: number = EXIT.failed,
  ) {
    super(message);
  }
}
