/**
 * The attempts this client was handed by `begin`, so that `complete` and
 * `release` carry the fencing token without the caller passing it along.
 * Bounded: past `limit` keys the oldest is forgotten (a begin never finished).
 */
export class AttemptBook {
  private readonly attempts = new Map<string, number>();

  constructor(private readonly limit = 10_000) {}

  private static id(scope: string, key: string): string {
    return JSON.stringify([scope, key]);
  }

  remember(scope: string, key: string, attempt: number): void {
    const id = AttemptBook.id(scope, key);
    this.attempts.delete(id);
    this.attempts.set(id, attempt);
    if (this.attempts.size > this.limit) this.attempts.delete(this.attempts.keys().next().value!);
  }

  /** The attempt given, else the one begin handed out for the key (undefined: the server answers 400). */
  attemptFor(scope: string, key: string, given: number | undefined): number | undefined {
    return given ?? this.attempts.get(AttemptBook.id(scope, key));
  }

  /** Forgets the key once its own attempt finished (a stale attempt leaves a newer one alone). */
  forget(scope: string, key: string, attempt: number | undefined): void {
    const id = AttemptBook.id(scope, key);
    if (this.attempts.get(id) === attempt) this.attempts.delete(id);
  }
}
