import type { ReactNode } from "react";
import { QueryProvider } from "@/components/providers/query-provider";
import { zonePreference } from "@/lib/views/zone-preference";
import { ConsoleHeader } from "./console-header";
import { ScrollRegions } from "./scroll-regions";
import { TimeZoneProvider } from "./time-zone";

/** Every console page's frame: header (navigation, lookup, switches), an optional banner, and the main content. */
export async function ConsoleShell({ banner, children }: { banner?: ReactNode; children: ReactNode }) {
  return (
    <QueryProvider>
      <TimeZoneProvider initial={await zonePreference()}>
        <div className="shell">
          <ConsoleHeader />
          {banner}
          <main id="main" className="content" tabIndex={-1}>
            {children}
          </main>
          <ScrollRegions />
        </div>
      </TimeZoneProvider>
    </QueryProvider>
  );
}
