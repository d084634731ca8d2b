import { setting } from "@/lib/config";

/** Label value that stands for every subject past the cap. */
export const OTHER_SUBJECT = "_other";


/**
 * Services, consumer groups and scopes are named by callers, so a misbehaving
 * client could create any number of them. Each kind keeps its first N names as
 * label values and folds the rest into "_other", so a scrape stays bounded.
 */
export class SubjectLabels {
  private readonly seen = new Set<string>();

  constructor(private readonly limit = setting("WEIR_METRICS_MAX_SUBJECTS")) {}

  label(subject: string): string {
    if (this.seen.has(subject)) return subject;
    if (this.seen.size >= this.limit) return OTHER_SUBJECT;
    this.seen.add(subject);
    return subject;
  }
}
