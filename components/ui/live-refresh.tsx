"use client";
import { usePathname, useRouter, useSearchParams } from "next/navigation";
import { useEffect } from "react";

export const LIVE_REFRESH_SECONDS = 10;

/** Re-reads the page's server data every 10 s while on; the choice lives in the URL (live=1), so a shared link keeps it. */
export function LiveRefresh() {
  const router = useRouter();
  const pathname = usePathname();
  const params = useSearchParams();
  const live = params.get("live") === "1";
  useEffect(() => {
    if (!live) return;
    const timer = setInterval(() => router.refresh(), LIVE_REFRESH_SECONDS * 1000);
    return () => clearInterval(timer);
  }, [live, router]);
  const toggle = (on: boolean) => {
    const next = new URLSearchParams(params);
    if (on) next.set("live", "1");
    else next.delete("live");
    const query = next.toString();
    router.replace(query ? `${pathname}?${query}` : pathname, { scroll: false });
  };
  return (
    <label className="live-toggle small">
      <input type="checkbox" checked={live} onChange={(e) => toggle(e.target.checked)} /> Live (refresh every {LIVE_REFRESH_SECONDS} s)
    </label>
  );
}
