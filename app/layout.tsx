import type { Metadata } from "next";
import { cookies } from "next/headers";
import type { ReactNode } from "react";
import { SessionBar } from "@/components/auth/session-bar";
import { parseTheme, THEME_COOKIE } from "@/components/ui/theme";
import "./globals.css";

export const metadata: Metadata = {
  title: { default: "weir", template: "%s · weir" },
  description: "Deduplication decisions, state and replays",
};

export default async function RootLayout({ children }: { children: ReactNode }) {
  // The chosen colour scheme comes from a cookie, so the first paint already has it (no script, no flash).
  const theme = parseTheme((await cookies()).get(THEME_COOKIE)?.value);
  return (
    <html lang="en" data-theme={theme}>
      <body>
        <a className="skip-link" href="#main">
          Skip to content
        </a>
        {/* Reading the session makes every page dynamic, which the CSP nonce needs (proxy.ts). */}
        <SessionBar />
        {children}
      </body>
    </html>
  );
}
