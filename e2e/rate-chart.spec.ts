import { expect, test } from "@playwright/test";
import { registerService, uniqueId } from "./support/api";
import { seedTraffic } from "./support/sql";

const HOUR = 60;
const noise = (m: number) => (m * 7) % 3;

test("the overview charts the duplicate rate against the previous period; a rise is one trend, a burst a spike", async ({ page, request }) => {
  const rising = uniqueId("e2e-rise");
  const bursty = uniqueId("e2e-burst");
  await registerService(request, rising);
  await registerService(request, bursty);
  // Two days at 100 checks a minute and ~5 % duplicates. One service's rate climbs to ~30 % from
  // 10 h to 2 h ago; the other's stays put but for one 5-minute retry storm 6 h ago.
  const steady = (m: number) => ({ checks: 100, duplicates: 4 + noise(m) });
  await seedTraffic(rising, 48 * HOUR, (m) => (m >= 2 * HOUR && m < 10 * HOUR ? { checks: 100, duplicates: 25 + noise(m) + Math.floor((10 * HOUR - m) / HOUR) } : steady(m)));
  await seedTraffic(bursty, 48 * HOUR, (m) => (m >= 6 * HOUR && m < 6 * HOUR + 5 ? { checks: 900, duplicates: 800 } : steady(m)));

  await page.goto(`/?range=24h&kind=service&subject=${rising}`);
  await expect(page.getByTestId("trends")).toContainText("1 duplicate trend");
  await expect(page.getByTestId("trends")).toContainText(/\(8 h( 15 min)?\)/);
  await expect(page.getByTestId("spikes")).toHaveText("No duplicate spikes in this range.");

  // The rate chart comes first, with the previous 24 h drawn (dashed) beside this range's rate.
  const chart = page.getByTestId("rate-chart");
  await expect(chart.locator(".recharts-line")).toHaveCount(2);
  await expect(chart.locator('.recharts-line-curve[stroke-dasharray="5 4"]')).toHaveCount(1);
  await expect(chart.locator(".recharts-reference-area-rect")).toHaveCount(1);
  await expect(page.getByTestId("rate-summary")).toContainText("previous 24 h 5.0 %");
  const first = await page.locator("[data-testid=rate-chart], [data-testid=decisions-chart]").first().getAttribute("data-testid");
  expect(first).toBe("rate-chart");

  // Every colour on both charts is named in a legend, the spike red and the trend band included.
  const rateLegend = page.getByRole("list", { name: "Duplicate rate chart legend" });
  for (const name of ["Duplicate rate", "Previous 24 h", "Spike", "Trend"]) await expect(rateLegend.getByText(name, { exact: true })).toBeVisible();
  const countLegend = page.getByRole("list", { name: "Decisions chart legend" });
  for (const name of ["New", "Changed", "Duplicates", "Duplicates in a spike", "Trend", "Errors", "Late redeliveries"]) {
    await expect(countLegend.getByText(name, { exact: true })).toBeVisible();
  }
  const swatches = await rateLegend.locator("svg :is(line, circle, rect)").evaluateAll((marks) => marks.map((m) => m.getAttribute("stroke") ?? m.getAttribute("fill")));
  const drawn = await chart.locator(".recharts-line-curve, .spike-dot, .recharts-reference-area-rect").evaluateAll((marks) =>
    marks.map((m) => (m.classList.contains("recharts-line-curve") ? m.getAttribute("stroke") : m.getAttribute("fill"))),
  );
  expect(new Set(drawn).size).toBe(3);
  for (const colour of new Set(drawn)) expect(swatches, `legend names ${colour}`).toContain(colour);
  await page.screenshot({ path: "test-results/overview-rate-trend.png", fullPage: true });

  await page.goto(`/?range=24h&kind=service&subject=${bursty}`);
  await expect(page.getByTestId("spikes")).toContainText("1 duplicate spike");
  await expect(page.getByTestId("trends")).toHaveText("No sustained rise (trend) in this range.");
  // The storm may straddle two 15-minute buckets: one spike, one or two red dots.
  await expect(page.getByTestId("rate-chart").locator(".spike-dot").first()).toBeVisible();
  expect(await page.getByTestId("rate-chart").locator(".spike-dot").count()).toBeLessThanOrEqual(2);
  await page.screenshot({ path: "test-results/overview-rate-spike.png", fullPage: true });

  // The lists compare each subject's rate with the previous period's, with its direction.
  await page.goto("/?range=24h");
  const row = page.getByTestId("service-totals").getByRole("row").filter({ hasText: rising });
  await expect(row).toContainText(/up \d+\.\d pts \(was 5\.0 %\)/);
  await expect(page.getByTestId("service-totals").getByRole("columnheader", { name: "vs previous 24 h" })).toBeVisible();
});
