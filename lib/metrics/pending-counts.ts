import type { Counter } from "prom-client";

/**
 * Decision counts held as plain numbers per (subject, outcome) and handed to a Prometheus
 * counter when it is scraped: counting a decision is two map lookups, with no label object
 * and no label hash per decision (a batch of 1000 checks hashes its labels once per scrape).
 */
export class PendingCounts {
  private readonly bySubject = new Map<string, Map<string, number>>();

  add(subject: string, outcome: string): void {
    let outcomes = this.bySubject.get(subject);
    if (!outcomes) this.bySubject.set(subject, (outcomes = new Map()));
    outcomes.set(outcome, (outcomes.get(outcome) ?? 0) + 1);
  }

  /** Moves what was counted into `counter`, labelled `{ [subjectLabel]: subject, outcome }`. */
  drainInto<L extends string>(counter: Counter<L | "outcome">, subjectLabel: L): void {
    for (const [subject, outcomes] of this.bySubject) {
      for (const [outcome, count] of outcomes) {
        if (count === 0) continue;
        counter.inc({ [subjectLabel]: subject, outcome } as Record<L | "outcome", string>, count);
        outcomes.set(outcome, 0);
      }
    }
  }
}
