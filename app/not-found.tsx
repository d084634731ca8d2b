import type { Metadata } from "next";
import { ConsoleShell } from "@/components/ui/console-shell";
import { NotFoundPanel } from "@/components/ui/not-found-panel";

export const metadata: Metadata = { title: "Not found" };

/**
 * Any address outside the console's pages (answered with HTTP 404): the console's own header,
 * navigation and lookup box, so there is always a way back.
 */
export default function RootNotFound() {
  return (
    <ConsoleShell>
      <NotFoundPanel>The console has no page at this address. It may have been mistyped or moved.</NotFoundPanel>
    </ConsoleShell>
  );
}
