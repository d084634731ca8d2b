import { useEffect, useSyncExternalStore } from "react";

/**
 * The form as typed, kept in the tab while the user signs in again (a save needs a recent
 * sign-in, and the sign-in page is another page). Taken out of the tab's storage at the first
 * read after the return, and held here while the page stays, so it is restored exactly once.
 */
const keyOf = (serviceId: string) => `weir.service-settings.${serviceId}`;
const taken = new Map<string, string | null>();
const listeners = new Set<() => void>();

function subscribe(listener: () => void) {
  listeners.add(listener);
  return () => void listeners.delete(listener);
}

function take(serviceId: string): string | null {
  if (!taken.has(serviceId)) {
    taken.set(serviceId, sessionStorage.getItem(keyOf(serviceId)));
    sessionStorage.removeItem(keyOf(serviceId));
  }
  return taken.get(serviceId) ?? null;
}

export function keepDraft(serviceId: string, text: unknown): void {
  sessionStorage.setItem(keyOf(serviceId), JSON.stringify(text));
}

export function discardDraft(serviceId: string): void {
  taken.set(serviceId, null);
  for (const listener of listeners) listener();
}

/** The kept draft as JSON text, or null (always null on the server). */
export function useKeptDraft(serviceId: string): string | null {
  useEffect(() => () => void taken.delete(serviceId), [serviceId]);
  return useSyncExternalStore(subscribe, () => take(serviceId), () => null);
}
