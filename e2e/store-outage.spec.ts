import { expect, test } from "@playwright/test";
import { cutStore } from "./support/sql";

test("a store outage keeps the navigation, shows weir's notice and recovers by itself", async ({ page }) => {
  await page.goto("/services");
  await expect(page.getByTestId("store-banner")).toHaveCount(0);
  const restore = await cutStore();
  try {
    // A fresh load: navigation, banner and notice, never the generic error card; 503 for uptime probes.
    const response = await page.goto("/services");
    expect(response?.status()).toBe(503);
    expect(response?.headers()["retry-after"]).toBeDefined();
    expect((await page.request.head("/services")).status()).toBe(503);
    await expect(page.getByRole("navigation", { name: "Console" })).toBeVisible();
    await expect(page.getByTestId("store-banner")).toBeVisible();
    await expect(page.getByTestId("store-notice")).toBeVisible();
    await expect(page.getByTestId("route-error")).toHaveCount(0);
    await page.screenshot({ path: "test-results/store-outage.png", fullPage: true });

    // Client navigation during the outage: still weir's own notice.
    await page.getByRole("navigation", { name: "Console" }).getByRole("link", { name: "Consumer groups" }).click();
    await expect(page).toHaveURL(/\/groups$/);
    await expect(page.getByTestId("store-notice")).toBeVisible();
    await expect(page.getByTestId("route-error")).toHaveCount(0);
  } finally {
    await restore();
  }
  // No reload: the page polls /api/health and loads its data once the store answers.
  await expect(page.getByTestId("store-banner")).toHaveCount(0, { timeout: 20_000 });
  await expect(page.getByTestId("store-notice")).toHaveCount(0, { timeout: 20_000 });
  await expect(page.getByRole("heading", { level: 1, name: "Consumer groups" })).toBeVisible();
  expect((await page.request.get("/services")).status()).toBe(200);
});
