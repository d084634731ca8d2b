import { expect, test } from "@playwright/test";
import { checkAll, registerService, uniqueId } from "./support/api";
import { ids } from "./support/console-data";

test("browse a service's keys page by page and filter them through the URL", async ({ page, request }) => {
  const serviceId = uniqueId("e2e-keys");
  await registerService(request, serviceId, { historyDepth: 3 });
  const orders = ids("order-", 60);
  await checkAll(request, [...orders, ...ids("refund-", 5)].map((messageId) => ({ serviceId, messageId, payload: { v: 1 } })));
  await checkAll(request, orders.slice(0, 4).map((messageId) => ({ serviceId, messageId, payload: { v: 2 } })));

  // The list shows 50 services a page: search for this one among every spec's.
  await page.goto(`/services?q=${serviceId}`);
  await page.getByTestId("services").getByRole("link", { name: serviceId }).click();
  const rows = page.getByTestId("keys").locator("tbody tr");
  await expect(rows).toHaveCount(50);
  const firstRow = await rows.first().locator("td").first().textContent();
  await page.getByTestId("next-page").click();
  await expect(rows).toHaveCount(15);
  await expect(page.getByText("End of the list")).toBeVisible();
  await expect(page.getByTestId("key-total")).toHaveText("65 keys");
  // Keyset paging goes back as well: Previous shows the first 50 again.
  await page.getByTestId("prev-page").click();
  await expect(page).toHaveURL(/before=/);
  await expect(rows).toHaveCount(50);
  await expect(rows.first().locator("td").first()).toHaveText(firstRow!);
  await page.getByTestId("next-page").click();
  await expect(rows).toHaveCount(15);
  await page.screenshot({ path: "test-results/keys.png", fullPage: true });

  await page.getByRole("link", { name: "« First page" }).click();
  await page.getByLabel("Message id starts with").fill("refund-");
  await page.getByRole("button", { name: "Apply" }).click();
  await expect(page).toHaveURL(/prefix=refund-/);
  await expect(rows).toHaveCount(5);
  await expect(rows.first()).toContainText("refund-");

  // The filtered URL is shareable: loading it afresh gives the same list.
  await page.goto(`/services/${serviceId}?minVersion=2`);
  await expect(rows).toHaveCount(4);
  await expect(page.getByLabel("At least versions")).toHaveValue("2");
  await expect(rows.first()).toContainText("order-00");
  await page.screenshot({ path: "test-results/keys-filtered.png", fullPage: true });
});
