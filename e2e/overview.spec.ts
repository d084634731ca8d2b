import { expect, test } from "@playwright/test";
import { checkAll, registerService, uniqueId } from "./support/api";
import { expectFitsAndAxeClean } from "./support/fits";
import { claimAll } from "./support/console-data";
import { seedMinuteStats } from "./support/sql";

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

  // Stats reach the rollup within a few seconds; decisions never lag. The tables show the subjects
  // with the most duplicates (other specs' among them) and always the charted one.
  await expect(async () => {
    await page.goto(`/?kind=group&subject=${group}`);
    await expect(page.getByTestId("group-totals").getByRole("row").filter({ hasText: group })).toContainText("50.0 %");
    await page.goto(`/?kind=service&subject=${serviceId}`);
    await expect(page.getByTestId("service-totals").getByRole("row").filter({ hasText: serviceId })).toContainText("33.3 %");
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

test("the overview's tables show the services with the most duplicates, the charted one, and a link to all of them", async ({ page, request }) => {
  const prefix = uniqueId("e2e-top");
  const id = (i: number) => `${prefix}-${String(i).padStart(2, "0")}`;
  // Twelve services: one with far more duplicates than any other spec makes, ten more, and one with none.
  for (let i = 0; i < 12; i++) await registerService(request, id(i));
  for (let i = 0; i < 11; i++) await seedMinuteStats(id(i), 1, () => (i === 0 ? 10_000_000 : 11 - i));
  const busiest = id(0);
  const quiet = id(11);

  await page.goto("/");
  const rows = page.getByTestId("service-totals").locator("tbody tr");
  await expect(rows.first()).toContainText(busiest);
  await expect(rows).toHaveCount(10);
  await expect(page.getByTestId("service-totals")).not.toContainText(quiet);
  const more = page.getByTestId("service-totals-more");
  await expect(more).toContainText("The 10 services with the most duplicates in this range");
  await expect(more.getByRole("link", { name: /^All [\d,]+ services →$/ })).toHaveAttribute("href", "/services?sort=duplicates");

  // The service the chart shows keeps its row, after the ten.
  await page.goto(`/?subject=${quiet}`);
  await expect(rows).toHaveCount(11);
  await expect(rows.last()).toContainText(quiet);
  await expect(rows.last()).toHaveAttribute("aria-selected", "true");
  await expect(more).toContainText("and the one charted above");
  await expectFitsAndAxeClean(page);
  await more.getByRole("link", { name: /^All [\d,]+ services →$/ }).click();
  await expect(page).toHaveURL(/\/services\?sort=duplicates$/);
  await expect(page.getByTestId("services").locator("tbody tr").first()).toContainText(busiest);
});
