export type JournalKind = "service" | "group" | "scope";
export type JournalModeName = "last_seen" | "window" | "idempotency";

export const MODE_OF_KIND: Record<JournalKind, JournalModeName> = { service: "last_seen", group: "window", scope: "idempotency" };
export const KIND_OF_MODE: Record<JournalModeName, JournalKind> = { last_seen: "service", window: "group", idempotency: "scope" };

export const KIND_LABEL: Record<JournalKind, string> = { service: "Service", group: "Consumer group", scope: "Idempotency scope" };
export const MODE_LABEL: Record<JournalModeName, string> = { last_seen: "Last-seen checks", window: "Window claims", idempotency: "Idempotency keys" };

/** A minute as the gap notice names it: "2026-11-27 03:12 UTC". */
export const formatMinute = (iso: string) => `${iso.slice(0, 16).replace("T", " ")} UTC`;

const hrefWith = (path: string, query: Record<string, string>) => `${path}?${new URLSearchParams(query).toString()}`;

/** Where one key of a subject is shown with its timeline. */
export function keyHref(mode: JournalModeName, subject: string, key: string): string {
  if (mode === "window") return hrefWith(`/groups/${encodeURIComponent(subject)}`, { claim: key });
  if (mode === "idempotency") return hrefWith("/idempotency/key", { scope: subject, key });
  return hrefWith(`/services/${encodeURIComponent(subject)}/key`, { id: key });
}

export function subjectHref(kind: JournalKind, subject: string): string {
  if (kind === "group") return `/groups/${encodeURIComponent(subject)}`;
  if (kind === "scope") return hrefWith("/idempotency", { scope: subject });
  return `/services/${encodeURIComponent(subject)}`;
}

/** A UTC instant as the from/to of a journal URL: minute precision when it has no seconds. */
export function rangeParam(ms: number): string {
  const iso = new Date(ms).toISOString();
  return ms % 60_000 === 0 ? iso.slice(0, 16) : iso;
}

export const LEVEL_LABEL: Record<"all" | "changes_and_duplicates" | "off", string> = {
  all: "Every answer",
  changes_and_duplicates: "Changes and duplicates only (no first acceptances)",
  off: "Off: nothing kept",
};

/** "+40 %", "−25 %", "new", "gone", "=": how a caller's duplicates moved against the previous period. */
export function movement(now: number, before: number): string {
  if (before === 0) return now === 0 ? "=" : "new";
  if (now === 0) return "gone";
  const change = Math.round(((now - before) / before) * 100);
  return change === 0 ? "=" : `${change > 0 ? "+" : "−"}${Math.abs(change)} %`;
}
