import { expect, test } from "@playwright/test";
import { registerService, uniqueId } from "./support/api";

test("unknown services, keys, resets and groups answer 404 with the console's page and its navigation", async ({ page, request }) => {
  const serviceId = uniqueId("e2e-404");
  await registerService(request, serviceId);
  for (const path of [
    "/services/does-not-exist",
    `/services/${serviceId}/key?id=never-seen`,
    "/reset/999999",
    "/groups/does-not-exist",
    "/idempotency/key?scope=nope&key=nope",
  ]) {
    const response = await page.goto(path);
    expect(response?.status(), path).toBe(404);
    await expect(page.getByTestId("not-found")).toBeVisible();
    await expect(page.getByRole("navigation", { name: "Console" })).toBeVisible();
  }
  // An unknown group offers no TTL editor or reset: saving one would have created it.
  await expect(page.getByLabel("New TTL")).toHaveCount(0);
  await expect(page.getByRole("link", { name: "Reset records…" })).toHaveCount(0);
  await page.screenshot({ path: "test-results/not-found.png", fullPage: true });
  await page.getByTestId("not-found").getByRole("link", { name: "All services" }).click();
  await expect(page).toHaveURL(/\/services$/);
});

test("an address outside the console's pages answers 404 with the console's header, navigation and lookup", async ({ page }) => {
  for (const path of ["/no-such-page", "/services-typo/x/y", "/api-docs-typo"]) {
    const response = await page.goto(path);
    expect(response?.status(), path).toBe(404);
    await expect(page.getByTestId("not-found")).toContainText("no page at this address");
    await expect(page.getByRole("navigation", { name: "Console" })).toBeVisible();
    await expect(page.getByRole("search", { name: "Find an id" })).toBeVisible();
  }
  await page.screenshot({ path: "test-results/not-found-root.png", fullPage: true });
  await page.getByTestId("not-found").getByRole("link", { name: "Overview" }).click();
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByTestId("not-found")).toHaveCount(0);
});
