import { expect, test } from "@playwright/test";
import { checkAll, registerService, uniqueId } from "./support/api";
import { claimAll } from "./support/console-data";

test("a diff of versions that are not kept compares the nearest kept ones, and says so", async ({ page, request }) => {
  const serviceId = uniqueId("e2e-clamp");
  await registerService(request, serviceId, { historyDepth: 3 });
  await checkAll(request, [1, 2, 3, 4, 5].map((v) => ({ serviceId, messageId: "X", payload: { v } })));

  await page.goto(`/services/${serviceId}/key?id=X&from=9&to=1`);
  await expect(page.getByTestId("diff-heading")).toHaveText("v5 → v3");
  await expect(page.getByLabel("From version")).toHaveValue("5");
  await expect(page.getByLabel("To version")).toHaveValue("3");
  await expect(page.getByText("Only versions 3 to 5 are kept")).toBeVisible();
});

test("ids with zero-width and bidi characters are shown with visible escapes everywhere, and found by the lookup box", async ({ page, request, context }) => {
  const serviceId = uniqueId("e2e-hidden");
  const group = uniqueId("e2e-hidden-group");
  await registerService(request, serviceId, { historyDepth: 2 });
  const sneaky = "m\u200B1";
  await checkAll(request, [
    { serviceId, messageId: "m1", payload: { note: "plain" } },
    { serviceId, messageId: sneaky, payload: { note: "a" } },
    { serviceId, messageId: sneaky, payload: { note: "b\u202Ec" } },
  ]);
  await claimAll(request, [{ consumerGroup: group, messageId: sneaky }]);

  await page.goto(`/services/${serviceId}`);
  const rows = page.getByTestId("keys").locator("tbody tr");
  await expect(rows.filter({ hasText: "m\\u200B1" })).toHaveCount(1);
  await expect(rows.filter({ hasText: "m\\u200B1" }).getByTestId("hidden-char")).toHaveAttribute("title", /U\+200B \(zero width space\)/);
  await rows.filter({ hasText: "m\\u200B1" }).getByRole("link").click();
  await expect(page.getByRole("heading", { level: 1 })).toContainText("m\\u200B1");
  await expect(page.getByTestId("diff-table")).toContainText("\\u202E");

  // Copy gives the exact id, invisible character included.
  await context.grantPermissions(["clipboard-read", "clipboard-write"]);
  await page.getByRole("button", { name: "Copy message id" }).click();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(sneaky);

  // The lookup box finds the exact id in the service and in the consumer group, and not the look-alike.
  await page.getByRole("searchbox").fill(sneaky);
  await page.getByRole("searchbox").press("Enter");
  const found = page.getByTestId("find-results");
  await expect(found.locator("tbody tr")).toHaveCount(2);
  await expect(found).toContainText(group);
  await expect(found).toContainText(serviceId);
  await page.screenshot({ path: "test-results/find.png", fullPage: true });
});
