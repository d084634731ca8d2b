"use client";
import { useSyncExternalStore, type ReactNode } from "react";

const never = () => () => {};

/**
 * A chart drawn in the browser only. On the server recharts draws nothing (it has no width yet) but
 * still runs its whole component tree and store per chart; the server now sends a box of the chart's
 * height instead, which the chart replaces once hydrated, so nothing below it moves.
 */
export function BrowserOnly({ height, children }: { height: number; children: ReactNode }) {
  const hydrated = useSyncExternalStore(never, () => true, () => false);
  return hydrated ? children : <div className="chart-placeholder" style={{ width: "100%", height }} />;
}
