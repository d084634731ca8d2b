import { randomBytes } from "node:crypto";
import { defineConfig } from "@playwright/test";
import { e2eDatabaseUrl } from "./e2e/support/database";
import { systemChromium } from "./scripts/preflight-chromium";
import { E2E_USERS, storageStateOf } from "./e2e/support/users";

const port = Number(process.env.WEIR_E2E_PORT ?? 3100);

// One API token per run, made here so that the server's seed (prepare-database.ts) and every
// worker (which inherits this environment) agree on it. Specs' `request` calls send it.
process.env.WEIR_E2E_API_TOKEN ??= `weir_${randomBytes(32).toString("base64url")}`;

/**
 * End-to-end specs run against the production build served by weir's own
 * server (the same process layout as in production) on a fresh local database.
 */
export default defineConfig({
  testDir: "./e2e",
  outputDir: "./test-results",
  timeout: 60_000,
  fullyParallel: false,
  workers: 1,
  forbidOnly: true,
  reporter: [["list"], ["html", { open: "never", outputFolder: "playwright-report" }]],
  globalSetup: "./e2e/support/global-setup.ts",
  use: {
    baseURL: `http://127.0.0.1:${port}`,
    // For the API calls specs make to create their data; the console ignores it and uses the session cookie.
    extraHTTPHeaders: { authorization: `Bearer ${process.env.WEIR_E2E_API_TOKEN}` },
    screenshot: "on",
    trace: "retain-on-failure",
    launchOptions: {
      // The browser the test command's preflight found (or downloaded); run directly, the machine's or Playwright's own.
      executablePath: process.env.CHROMIUM_PATH || systemChromium(),
      args: ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update", "--disable-sync"],
    },
  },
  // The setup project signs in through the real sign-in page and saves each role's browser state;
  // every other spec starts signed in as the admin unless it asks for another role's state.
  projects: [
    { name: "setup", testMatch: /auth\.setup\.ts$/ },
    { name: "console", dependencies: ["setup"], testIgnore: /auth\.setup\.ts$/, use: { storageState: storageStateOf("admin") } },
  ],
  webServer: {
    command: "npx tsx e2e/support/prepare-database.ts && npm run build && node dist/server.mjs",
    url: `http://127.0.0.1:${port}/api/health`,
    timeout: 300_000,
    reuseExistingServer: false,
    stdout: "pipe",
    env: {
      NODE_ENV: "production",
      PORT: String(port),
      HOST: "127.0.0.1",
      DATABASE_URL: e2eDatabaseUrl,
      WEIR_ADMIN_EMAIL: E2E_USERS.admin.email,
      WEIR_ADMIN_PASSWORD: E2E_USERS.admin.password,
      WEIR_E2E_API_TOKEN: process.env.WEIR_E2E_API_TOKEN,
      // Trace ids in key timelines link here (e2e/journal-incident.spec.ts).
      WEIR_TRACE_URL: "https://tempo.example/trace/{traceId}",
      NEXT_TELEMETRY_DISABLED: "1",
    },
  },
});
