import { expect, test } from "@playwright/test";
import { checkAll, registerService, uniqueId } from "./support/api";
import { claimAll } from "./support/console-data";

test("overview charts a service's decisions from the rollup, per range", async ({ page, request }) => {
  const serviceId = uniqueId("e2e-overview");
  const group = uniqueId("e2e-overview-group");
  await registerService(request, serviceId);
  const results = await checkAll(request, [
    { serviceId, messageId: "a", payload: { v: 1 } },
    { serviceId, messageId: "a", payload: { v: 1 } },
    { serviceId, messageId: "a", payload: { v: 2 } },
  ]);
  expect(results.map((r) => r.decision)).toEqual(["new", "duplicate", "changed"]);
  expect((await claimAll(request, [{ consumerGroup: group, messageId: "m" }, { consumerGroup: group, messageId: "m" }])).map((r) => r.decision)).toEqual([
    "new",
    "duplicate",
  ]);

  // Stats reach the rollup within a few seconds; decisions never lag.
  await expect(async () => {
    await page.goto("/");
    await expect(page.getByTestId("service-totals").getByRole("row").filter({ hasText: serviceId })).toContainText("33.3 %");
    await expect(page.getByTestId("group-totals").getByRole("row").filter({ hasText: group })).toContainText("50.0 %");
  }).toPass({ timeout: 20_000 });

  await page.getByTestId("service-totals").getByRole("link", { name: serviceId, exact: true }).click();
  await expect(page).toHaveURL(new RegExp(`subject=${serviceId}`));
  await expect(page.getByRole("heading", { name: `Service ${serviceId}` })).toBeVisible();
  const bars = page.getByTestId("decisions-chart").locator(".recharts-bar-rectangle");
  await expect(bars.first()).toBeVisible();
  await expect(page.getByText("3 checks, 33.3 % duplicates")).toBeVisible();
  await page.screenshot({ path: "test-results/overview.png", fullPage: true });

  await page.getByRole("navigation", { name: "Time range" }).getByRole("link", { name: "Last 7 days" }).click();
  await expect(page).toHaveURL(/range=7d/);
  await expect(page.getByText("one bar per 60 min")).toBeVisible();
  await expect(bars.first()).toBeVisible();
  await page.screenshot({ path: "test-results/overview-7d.png", fullPage: true });
});
