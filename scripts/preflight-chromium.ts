import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import path from "node:path";
import type { PlaywrightChromium } from "./preflight-plan";

const SYSTEM_CHROMIUM = ["/usr/bin/chromium", "/usr/bin/chromium-browser", "/Applications/Chromium.app/Contents/MacOS/Chromium"];

export function systemChromium(): string | undefined {
  return SYSTEM_CHROMIUM.find((file) => existsSync(file));
}

/** Playwright's own Chromium, and whether it starts (a bare Linux lacks the libraries it links to). */
export async function playwrightChromium(): Promise<PlaywrightChromium> {
  // Loaded only when needed: Playwright takes longer to import than the rest of the preflight takes to run.
  const { chromium } = await import("@playwright/test");
  const file = chromium.executablePath();
  if (!existsSync(file)) return { state: "absent" };
  const runs = spawnSync(file, ["--version"], { stdio: "ignore", timeout: 10_000 }).status === 0;
  return runs ? { state: "ready", path: file } : { state: "broken", path: file };
}

/** `playwright install chromium`, shown as it goes; false where it cannot download. */
export function downloadPlaywrightChromium(): boolean {
  const cli = path.join(import.meta.dirname, "..", "node_modules", ".bin", "playwright");
  console.log("preflight: no Chromium on this machine; downloading Playwright's (playwright install chromium)");
  return spawnSync(cli, ["install", "chromium"], { stdio: "inherit", timeout: 600_000 }).status === 0;
}
