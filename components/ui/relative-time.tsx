"use client";
import { useSyncExternalStore } from "react";
import { formatInstant, formatRelative } from "@/lib/views/format";

// One shared clock for every relative time on the page, ticking every 15 s while any is shown.
let clock = Date.now();
const listeners = new Set<() => void>();
let timer: ReturnType<typeof setInterval> | undefined;

function subscribe(listener: () => void) {
  listeners.add(listener);
  clock = Date.now();
  timer ??= setInterval(() => {
    clock = Date.now();
    for (const l of listeners) l();
  }, 15_000);
  return () => {
    listeners.delete(listener);
    if (listeners.size === 0 && timer) {
      clearInterval(timer);
      timer = undefined;
    }
  };
}

/**
 * "5 min ago", with the absolute UTC time on hover. The server and the
 * hydrating client both render the UTC time (no mismatch in any zone or
 * locale); the relative form follows once hydrated and keeps itself current.
 */
export function RelativeTime({ value }: { value: string | null }) {
  const now = useSyncExternalStore(subscribe, () => clock, () => null);
  if (value === null) return <>–</>;
  const absolute = formatInstant(value);
  return (
    <time dateTime={value} title={absolute}>
      {now === null ? absolute : formatRelative(Date.parse(value), now)}
    </time>
  );
}
