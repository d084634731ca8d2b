import type { Metadata } from "next";
import type { ReactNode } from "react";
import { SessionBar } from "@/components/auth/session-bar";
import "./globals.css";

export const metadata: Metadata = {
  title: { default: "weir", template: "%s · weir" },
  description: "Deduplication decisions, state and replays",
};

export default function RootLayout({ children }: { children: ReactNode }) {
  return (
    <html lang="en">
      <body>
        {/* Reading the session makes every page dynamic, which the CSP nonce needs (proxy.ts). */}
        <SessionBar />
        {children}
      </body>
    </html>
  );
}
