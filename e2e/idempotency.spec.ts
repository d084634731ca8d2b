import { expect, test } from "@playwright/test";
import { uniqueId } from "./support/api";
import { beginKey, setScope } from "./support/console-data";

test("release a stuck idempotency key and find it in the exported audit log", async ({ page, request }) => {
  const scope = uniqueId("e2e-scope");
  await setScope(request, scope, { lockSeconds: 1 });
  expect(await beginKey(request, scope, "pay-1", { amount: 5 })).toMatchObject({ outcome: "started" });
  await page.waitForTimeout(1_200);

  await page.goto(`/idempotency?scope=${scope}`);
  const row = page.getByTestId("idempotency-keys").getByRole("row").filter({ hasText: "pay-1" });
  await expect(row).toContainText("stuck");
  await row.getByRole("link", { name: "pay-1" }).click();
  await page.getByLabel("Reason (for the audit log)").fill("=HYPERLINK(\"http://evil\") worker crashed");
  await page.screenshot({ path: "test-results/idempotency-key.png", fullPage: true });
  await page.getByRole("button", { name: "Release attempt 1" }).click();
  await expect(page).toHaveURL(new RegExp(`/idempotency\\?scope=${scope}`));
  // The list confirms what was released.
  await expect(page.getByTestId("released")).toContainText(`Released attempt 1 of key pay-1 in scope ${scope}`);
  await expect(page.getByText(`No in progress keys in scope ${scope}.`)).toBeVisible();

  await page.goto(`/audit?action=idempotency_key.release&target=idempotency_scope:${scope}`);
  await expect(page.getByTestId("audit").locator("tbody tr")).toHaveCount(1);
  const download = page.waitForEvent("download");
  await page.getByTestId("export-csv").click();
  const csv = await (await download).path().then((path) => import("node:fs/promises").then((fs) => fs.readFile(path, "utf8")));
  const lines = csv.trim().split("\r\n");
  expect(lines).toHaveLength(2);
  expect(lines[1]).toContain(`"idempotency_key.release"`);
  expect(lines[1]).toContain(`"'=HYPERLINK(""http://evil"") worker crashed"`);
  await page.screenshot({ path: "test-results/audit-filtered.png", fullPage: true });
});
