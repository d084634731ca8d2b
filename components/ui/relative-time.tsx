"use client";
import { useSyncExternalStore } from "react";
import { formatInstant, formatRelative } from "@/lib/views/format";
import { useTimeZone } from "./time-zone";

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
 * "5 min ago", with the absolute time on hover, in the viewer's zone (the cookie's, so the server and
 * the hydrating client render the same text); the relative form follows once hydrated and keeps
 * itself current.
 */
export function RelativeTime({ value }: { value: string | null }) {
  const now = useSyncExternalStore(subscribe, () => clock, () => null);
  const zone = useTimeZone();
  if (value === null) return <>–</>;
  const absolute = formatInstant(value, zone);
  return (
    <time dateTime={value} title={absolute}>
      {now === null ? absolute : formatRelative(Date.parse(value), now)}
    </time>
  );
}
