import { expect, test } from "@playwright/test";
import { checkAll, registerService, uniqueId } from "./support/api";
import { expectFitsAndAxeClean } from "./support/fits";

test("an id stored in many services is found a page of 25 at a time, every match reachable", async ({ page, request }) => {
  const messageId = uniqueId("everywhere");
  const services = Array.from({ length: 27 }, (_, i) => `${uniqueId("e2e-find-page")}-${String(i).padStart(2, "0")}`);
  for (const serviceId of services) await registerService(request, serviceId);
  await checkAll(request, services.map((serviceId) => ({ serviceId, messageId, payload: { serviceId } })));

  await page.goto(`/find?q=${messageId}`);
  const rows = page.getByTestId("find-results").locator("tbody tr");
  await expect(page.getByTestId("find-count")).toHaveText("27 matches; 1–25 shown");
  await expect(rows).toHaveCount(25);
  const firstPage = await rows.locator("td:nth-child(3)").allTextContents();
  await expectFitsAndAxeClean(page);

  await page.getByTestId("next-page").click();
  await expect(page).toHaveURL(/[?&]page=2/);
  await expect(page.getByTestId("find-count")).toHaveText("27 matches; 26–27 shown");
  await expect(rows).toHaveCount(2);
  await expect(page.getByTestId("next-page")).toHaveCount(0);
  const secondPage = await rows.locator("td:nth-child(3)").allTextContents();
  expect([...firstPage, ...secondPage].sort()).toEqual([...services].sort());

  await page.getByRole("link", { name: "« First page" }).click();
  await expect(rows).toHaveCount(25);
  await expect(page.getByTestId("find-count")).toHaveText("27 matches; 1–25 shown");
});
