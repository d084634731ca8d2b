import { expect, test } from "@playwright/test";
import { uniqueId } from "./support/api";

test("a token's own limits are set in the form and shown in the list; left empty, the defaults are named", async ({ page }) => {
  const limited = uniqueId("e2e-limits");
  const plain = uniqueId("e2e-plain");
  await page.goto("/tokens");
  const form = page.getByRole("form", { name: "Create token" });
  await form.getByLabel("Name").fill(limited);
  await form.getByLabel("Services").fill("*");
  await form.getByLabel("Max in flight per node").fill("16");
  await form.getByLabel("Requests per second per node").fill("50");
  await form.getByRole("button", { name: "Create token" }).click();
  await expect(page.getByTestId("new-token")).toContainText("weir_");
  const row = page.getByRole("row").filter({ hasText: limited });
  await expect(row).toContainText("in flight: 16");
  await expect(row).toContainText("per second: 50");

  await form.getByLabel("Name").fill(plain);
  await form.getByLabel("Max in flight per node").fill("");
  await form.getByLabel("Requests per second per node").fill("");
  await form.getByRole("button", { name: "Create token" }).click();
  const plainRow = page.getByRole("row").filter({ hasText: plain });
  await expect(plainRow).toContainText("in flight: default share");
  await expect(plainRow).toContainText("per second: unlimited");
});

test("while the node sheds load, a banner under the header says why; it goes when health is back to normal", async ({ page }) => {
  let degraded = true;
  await page.route("**/api/health", async (route) => {
    const body = degraded
      ? { status: "ok", store: { reachable: true }, degraded: { reasons: ["shedding"], message: "37 requests refused 503 overloaded in the last 10 s" } }
      : { status: "ok", store: { reachable: true }, degraded: null };
    await route.fulfill({ status: 200, contentType: "application/json", body: JSON.stringify(body) });
  });
  await page.goto("/services");
  const banner = page.getByTestId("shedding-banner");
  await expect(banner).toContainText("37 requests refused 503 overloaded");
  await expect(page.getByTestId("store-banner")).toHaveCount(0);
  await page.setViewportSize({ width: 360, height: 800 });
  await expect(banner).toBeVisible();
  degraded = false;
  await page.reload();
  await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
  await expect(banner).toHaveCount(0, { timeout: 20_000 });
});
