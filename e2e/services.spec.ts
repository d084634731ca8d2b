import { expect, test } from "@playwright/test";
import { checkAll, registerService, uniqueId } from "./support/api";
import { expectFitsAndAxeClean } from "./support/fits";
import { ids } from "./support/console-data";

test("services list: key counts, last activity, duplicate sparkline, search and sort", async ({ page, request }) => {
  const prefix = uniqueId("e2e-svc");
  const big = `${prefix}-big`;
  const small = `${prefix}-small`;
  await registerService(request, big);
  await registerService(request, small);
  await checkAll(request, ids("b-", 30).map((messageId) => ({ serviceId: big, messageId, payload: { v: 1 } })));
  await checkAll(request, ids("b-", 10).map((messageId) => ({ serviceId: big, messageId, payload: { v: 1 } })));
  await checkAll(request, [{ serviceId: small, messageId: "s-1", payload: { v: 1 } }]);

  await page.goto(`/services?q=${prefix}`);
  await expect(page.getByTestId("service-count")).toContainText("2 of");
  const rows = page.getByTestId("services").locator("tbody tr");
  await expect(rows).toHaveCount(2);
  await page.getByTestId("services").getByRole("link", { name: "Keys", exact: true }).click();
  await expect(page).toHaveURL(/sort=keys/);
  await expect(rows.first()).toContainText(big);
  await expect(rows.first().locator("td").nth(1)).toHaveText("30");
  await expect(page.getByRole("columnheader", { name: /Keys/ })).toHaveAttribute("aria-sort", "descending");
  // Stats reach the rollup within seconds: then the row has a last activity and a sparkline point.
  await expect(async () => {
    await page.reload();
    await expect(rows.first().locator("time")).toBeVisible();
    await expect(rows.first().getByRole("img", { name: /Duplicate rate per hour/ })).toHaveAttribute("aria-label", /highest 25\.0 %/);
  }).toPass({ timeout: 20_000 });
  await page.screenshot({ path: "test-results/services.png", fullPage: true });
});

test("services list: 25 a page, the search and sort kept from page to page", async ({ page, request }) => {
  const prefix = uniqueId("e2e-page");
  const id = (i: number) => `${prefix}-${String(i).padStart(2, "0")}`;
  for (let i = 0; i < 27; i++) await registerService(request, id(i));
  await checkAll(request, ids("k-", 3).map((messageId) => ({ serviceId: id(7), messageId, payload: { v: 1 } })));

  await page.goto(`/services?q=${prefix}`);
  const rows = page.getByTestId("services").locator("tbody tr");
  await expect(rows).toHaveCount(25);
  await expect(page.getByTestId("service-count")).toContainText("27 of");
  await expect(page.getByTestId("service-count")).toContainText("1–25 shown");
  await expect(rows.first()).toContainText(id(0));
  await page.getByTestId("next-page").click();
  await expect(page).toHaveURL(new RegExp(`q=${prefix}.*page=2`));
  await expect(rows).toHaveCount(2);
  await expect(rows.first()).toContainText(id(25));
  await expect(page.getByTestId("service-count")).toContainText("26–27 shown");
  await expect(page.getByText("End of the list")).toBeVisible();

  // A sort starts again at page one, over the whole search; its pages keep the sort.
  await page.getByTestId("services").getByRole("link", { name: "Keys", exact: true }).click();
  await expect(page).toHaveURL(/sort=keys/);
  await expect(page).not.toHaveURL(/page=/);
  await expect(rows.first()).toContainText(id(7));
  await page.getByTestId("next-page").click();
  await expect(page).toHaveURL(/sort=keys.*page=2/);
  await expect(rows).toHaveCount(2);
  await page.getByRole("link", { name: "« First page" }).click();
  await expect(rows).toHaveCount(25);

  await expectFitsAndAxeClean(page);

  // A page past the end (the list shrank since the link was shared) shows the last one.
  await page.goto(`/services?q=${prefix}&page=9`);
  await expect(rows).toHaveCount(2);
});
