import { expect, test } from "@playwright/test";
import { registerService, uniqueId } from "./support/api";
import { seedMinuteStats } from "./support/sql";

test("steady duplicates are not spikes; a real burst is, and is listed first", async ({ page, request }) => {
  const steady = uniqueId("e2e-steady");
  const bursty = uniqueId("e2e-burst");
  await registerService(request, steady);
  await registerService(request, bursty);
  // 120 duplicates a minute (with some noise) for the last 20 minutes of the hour: 40 empty minutes around them.
  const noisy = (m: number) => 115 + ((m * 7) % 11);
  await seedMinuteStats(steady, 20, noisy);
  await seedMinuteStats(bursty, 20, (m) => (m === 6 ? 2_400 : noisy(m)));

  await page.goto(`/?range=1h&kind=service&subject=${steady}`);
  await expect(page.getByTestId("spikes")).toHaveText("No duplicate spikes in this range.");
  await page.goto(`/?range=1h&kind=service&subject=${bursty}`);
  const spikes = page.getByTestId("spikes");
  await expect(spikes).toContainText("1 duplicate spike");
  await expect(spikes).toContainText("(2,400)");
  await page.screenshot({ path: "test-results/overview-spike.png", fullPage: true });

  // Act from the chart: axes say their unit, the tooltip gives totals and the duplicate share,
  // and a bar (or the spike in the list) opens the decisions of that bucket, with the chart's counts.
  const chart = page.getByTestId("decisions-chart");
  await expect(chart).toContainText("checks per 1 min");
  await expect(chart).toContainText("errors, late per 1 min");
  // Bars with a rectangle drawn: the minute can turn between seeding and loading, and the newest
  // bucket is then empty, a bar of no height that can never be hovered.
  const bars = chart.locator(".recharts-bar-rectangle").filter({ has: page.locator("path") });
  await bars.last().hover();
  await expect(page.getByTestId("chart-tooltip")).toContainText("% duplicates");
  await spikes.getByRole("link").first().click();
  await expect(page).toHaveURL(new RegExp(`/decisions\\?kind=service&subject=${bursty}&from=.*&to=`));
  await expect(page.getByTestId("bucket-stats")).toContainText("2,410 checks: 10 new, 0 changed, 2,400 duplicates");
  await page.goBack();
  await bars.last().click();
  await expect(page).toHaveURL(new RegExp(`/decisions\\?kind=service&subject=${bursty}&from=`));

  // Live refresh is a toggle kept in the URL.
  await page.goto(`/?range=1h&kind=service&subject=${bursty}`);
  const live = page.getByLabel(/Live \(refresh every/);
  await live.click();
  await expect(page).toHaveURL(/live=1/);
  await expect(live).toBeChecked();

  // The 24 h chart of steady traffic is not red throughout either.
  await page.goto(`/?range=24h&kind=service&subject=${steady}`);
  await expect(page.getByTestId("spikes")).toHaveText("No duplicate spikes in this range.");
});
