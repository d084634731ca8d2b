import { rangeParam } from "./journal-format";

/** What a chart bucket belongs to: one service, consumer group or idempotency scope. */
export type BucketLink = { kind: "service" | "group" | "scope"; id: string };

/**
 * Where a chart bucket leads: the decisions the journal kept for that subject in that bucket (for a
 * duplicate spike, the duplicated keys). The keys' own state cannot say it: a duplicate changes no key.
 */
export function bucketHref(link: BucketLink, t: number, stepSeconds: number): string {
  const query = { kind: link.kind, subject: link.id, from: rangeParam(t), to: rangeParam(t + stepSeconds * 1000) };
  return `/decisions?${new URLSearchParams(query).toString()}`;
}
