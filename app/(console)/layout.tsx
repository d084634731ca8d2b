import Link from "next/link";
import type { ReactNode } from "react";
import { ConsoleNav } from "@/components/ui/console-nav";
import { StoreUnavailableBanner } from "@/components/ui/store-unavailable";
import { QueryProvider } from "@/components/providers/query-provider";
import { storeReachable } from "@/lib/console/store";

export default async function ConsoleLayout({ children }: { children: ReactNode }) {
  const reachable = await storeReachable();
  return (
    <QueryProvider>
      <div className="shell">
        <header className="topbar">
          <Link href="/" className="brand">
            weir
          </Link>
          <ConsoleNav extra={[{ href: "/tokens", label: "API tokens" }]} />
        </header>
        {reachable ? null : <StoreUnavailableBanner />}
        <div className="content">{children}</div>
      </div>
    </QueryProvider>
  );
}
