import { expect, test, type APIRequestContext } from "@playwright/test";
import { registerService, uniqueId } from "./support/api";

const ORDERS = 5;
const SENDS = 6;
const TRACE = "4bf92f3577b34da6a3ce929d0e0e4736";

/** A producer retry storm: every order sent SENDS times, each request with an X-Request-Id the producer logged. */
async function retryStorm(request: APIRequestContext, serviceId: string) {
  for (let send = 0; send < SENDS; send++) {
    for (let order = 1; order <= ORDERS; order++) {
      const headers: Record<string, string> = { "x-request-id": `storm-O-${order}-try-${send}` };
      if (order === 3 && send === SENDS - 1) headers.traceparent = `00-${TRACE}-00f067aa0ba902b7-01`;
      const response = await request.post("/api/v1/check", { data: { serviceId, messageId: `O-${order}`, payload: { order, total: 10 * order } }, headers });
      expect(response.ok(), await response.text()).toBe(true);
      expect(response.headers()["x-request-id"]).toBe(headers["x-request-id"]);
    }
  }
}

test("on-call: from the retry storm's bar to the duplicated keys, to one key's timeline naming the caller and the request id", async ({ page, request }) => {
  const serviceId = uniqueId("e2e-storm");
  await registerService(request, serviceId);
  // The storm falls within one minute: started early enough in it to end before it does.
  const intoMinute = Date.now() % 60_000;
  if (intoMinute > 45_000) await page.waitForTimeout(60_000 - intoMinute + 500);
  const stormMinute = Math.floor(Date.now() / 60_000) * 60_000;
  await retryStorm(request, serviceId);
  expect(Math.floor(Date.now() / 60_000) * 60_000).toBe(stormMinute);

  // Stats flush every 2 s and the journal every second: the chart shows the storm within seconds.
  const checks = ORDERS * SENDS;
  const duplicates = ORDERS * (SENDS - 1);
  await expect(async () => {
    await page.goto(`/?range=1h&kind=service&subject=${serviceId}`);
    await expect(page.getByText(`${checks} checks, ${((100 * duplicates) / checks).toFixed(1)} % duplicates`)).toBeVisible({ timeout: 1_000 });
  }).toPass({ timeout: 20_000 });

  // The only bar with duplicates is the storm's minute: a click opens that bucket's decisions.
  const chart = page.getByTestId("decisions-chart");
  const duplicateBar = chart.locator('.recharts-bar-rectangle path[fill="#d97706"], .recharts-bar-rectangle path[fill="#b91c1c"]');
  await expect(duplicateBar).toHaveCount(1);
  await duplicateBar.click();
  await expect(page).toHaveURL(new RegExp(`/decisions\\?kind=service&subject=${serviceId}&from=${new Date(stormMinute).toISOString().slice(0, 16).replace(":", "%3A")}`));
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(`Decisions of service ${serviceId}`);
  await expect(page.getByTestId("bucket-stats")).toContainText(`${checks} checks: ${ORDERS} new, 0 changed, ${duplicates} duplicates`);
  await expect(page.getByTestId("decision-counts").getByRole("row").filter({ hasText: "duplicate" })).toContainText(String(duplicates));

  // The duplicated keys, each with its count, first and last time and caller (the e2e API token, by its name).
  const keys = page.getByTestId("top-keys");
  await expect(keys.getByRole("row")).toHaveCount(ORDERS + 1);
  const o3 = keys.getByRole("row").filter({ has: page.getByRole("link", { name: "O-3", exact: true }) });
  await expect(o3).toContainText(String(SENDS - 1));
  await expect(o3).toContainText("e2e specs");
  await expect(o3).toContainText(new Date(stormMinute).toISOString().slice(0, 16).replace("T", " "));
  await expect(page.getByTestId("top-callers")).toContainText("e2e specs");
  await page.screenshot({ path: "test-results/journal-bucket.png", fullPage: true });

  // One key's timeline: every answer, newest first, naming the caller and the request id that was sent.
  await o3.getByRole("link", { name: "O-3", exact: true }).click();
  await expect(page).toHaveURL(new RegExp(`/services/${serviceId}/key\\?id=O-3`));
  const timeline = page.getByTestId("key-timeline");
  const rows = timeline.locator("tbody tr");
  await expect(rows).toHaveCount(SENDS);
  await expect(rows.first()).toContainText("duplicate");
  await expect(rows.first()).toContainText(`storm-O-3-try-${SENDS - 1}`);
  await expect(rows.first()).toContainText("e2e specs");
  await expect(rows.first().getByRole("link", { name: TRACE })).toHaveAttribute("href", `https://tempo.example/trace/${TRACE}`);
  await expect(rows.last()).toContainText("new");
  await expect(rows.last()).toContainText("storm-O-3-try-0");
  await expect(rows.nth(2)).toContainText(`storm-O-3-try-${SENDS - 3}`);
  await expect(timeline.locator("time").first()).toHaveText(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\.\d{6} UTC$/);
  await page.screenshot({ path: "test-results/journal-key-timeline.png", fullPage: true });
});
