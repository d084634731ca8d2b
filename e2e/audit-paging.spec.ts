import { expect, test } from "@playwright/test";
import { uniqueId } from "./support/api";
import { setScope } from "./support/console-data";

test("the audit log pages back with Previous through the same entries", async ({ page, request }) => {
  test.setTimeout(120_000);
  const scope = uniqueId("e2e-audit-pages");
  // 55 audited changes of one scope: one page of 50 and one of 5.
  for (let i = 1; i <= 55; i++) await setScope(request, scope, { lockSeconds: i });

  await page.goto(`/audit?target=idempotency_scope:${scope}`);
  const rows = page.getByTestId("audit").locator("tbody tr");
  await expect(rows).toHaveCount(50);
  await expect(page.getByTestId("prev-page")).toHaveCount(0);
  const firstPage = await rows.allTextContents();
  await page.getByTestId("next-page").click();
  await expect(rows).toHaveCount(5);
  await expect(page.getByTestId("next-page")).toHaveCount(0);
  await page.getByTestId("prev-page").click();
  await expect(rows).toHaveCount(50);
  expect(await rows.allTextContents()).toEqual(firstPage);
  await expect(page.getByTestId("prev-page")).toHaveCount(0);
  await expect(page.getByTestId("next-page")).toBeVisible();
});
