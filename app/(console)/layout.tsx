import type { ReactNode } from "react";
import { ConsoleShell } from "@/components/ui/console-shell";
import { StoreWatch } from "@/components/ui/store-health";
import { StoreUnavailableNotice } from "@/components/ui/store-unavailable";
import { markStoreDown } from "@/lib/console/outage-status";
import { storeReachable } from "@/lib/console/store";

/**
 * Every console page: header with navigation and lookup, the live store banner, and the page.
 * While the store is down the page is not rendered at all (its session lookup would fail and
 * replace it with a generic error): weir's outage notice stands in, answered as 503 for uptime
 * probes (outage-status.ts), and the page loads by itself once /api/health answers again.
 */
export default async function ConsoleLayout({ children }: { children: ReactNode }) {
  const reachable = await storeReachable();
  if (!reachable) markStoreDown();
  return <ConsoleShell banner={<StoreWatch initiallyReachable={reachable} />}>{reachable ? children : <StoreUnavailableNotice />}</ConsoleShell>;
}
