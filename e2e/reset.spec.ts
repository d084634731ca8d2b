import { expect, test } from "@playwright/test";
import { checkAll, registerService, uniqueId } from "./support/api";
import { ids, keyState } from "./support/console-data";

test("bulk reset: preview, typed confirmation, progress, audit entry, then undo", async ({ page, request }) => {
  const serviceId = uniqueId("e2e-reset");
  await registerService(request, serviceId, { historyDepth: 2 });
  const keys = ids("r-", 120);
  await checkAll(request, keys.map((messageId) => ({ serviceId, messageId, payload: { v: 1 } })));
  await checkAll(request, keys.slice(0, 3).map((messageId) => ({ serviceId, messageId, payload: { v: 2 } })));
  await checkAll(request, [{ serviceId, messageId: "keep-1", payload: { v: 1 } }]);

  // From the key browser's filter to a prefilled reset form.
  await page.goto(`/services/${serviceId}?prefix=r-`);
  await page.getByRole("link", { name: "Reset these keys…" }).click();
  await expect(page).toHaveURL(/\/reset\?kind=last_seen/);
  await expect(page.getByLabel("Message id starts with")).toHaveValue("r-");
  await page.getByRole("button", { name: "Preview (dry run)" }).click();
  await expect(page.getByTestId("preview-count")).toHaveText("120");
  await expect(page.getByTestId("reset-preview").locator("tbody tr")).toHaveCount(20);

  const start = page.getByRole("button", { name: "Reset 120 rows" });
  await page.getByLabel("Reason (for the audit log)").fill("replay after the pricing fix");
  await expect(start).toBeDisabled();
  await page.getByLabel(`Type "${serviceId}" to confirm`).fill(serviceId);
  await page.screenshot({ path: "test-results/reset-preview.png", fullPage: true });
  await start.click();

  await expect(page).toHaveURL(/\/reset\/\d+$/);
  const progress = page.getByTestId("reset-progress");
  await expect(progress).toContainText("done", { timeout: 20_000 });
  await expect(progress).toContainText("120 of 120 rows reset");
  expect(await keyState(request, serviceId, "r-001")).toBeNull();
  expect(await keyState(request, serviceId, "keep-1")).not.toBeNull();
  await page.screenshot({ path: "test-results/reset-done.png", fullPage: true });
  const resetUrl = page.url();

  await page.getByRole("link", { name: "audit entries" }).click();
  const audit = page.getByTestId("audit");
  await expect(audit.getByRole("row").filter({ hasText: "reset.start" })).toContainText("replay after the pricing fix");
  await expect(audit.getByRole("row").filter({ hasText: "reset.complete" })).toContainText("120");
  await page.screenshot({ path: "test-results/audit.png", fullPage: true });

  // A replay reaches one key before the undo: it keeps its new state.
  expect((await checkAll(request, [{ serviceId, messageId: "r-001", payload: { v: 3 } }]))[0]).toMatchObject({ decision: "new", version: 1 });

  await page.goto(resetUrl);
  await page.getByLabel("Reason (for the audit log)").fill("replay postponed");
  await page.getByRole("button", { name: "Undo reset" }).click();
  await expect(progress).toContainText("undone", { timeout: 20_000 });
  await expect(progress).toContainText("119 restored, 1 skipped of 120");
  expect(await keyState(request, serviceId, "r-002")).toMatchObject({ version: 2 });
  expect(await keyState(request, serviceId, "r-050")).toMatchObject({ version: 1 });
  expect(await keyState(request, serviceId, "r-001")).toMatchObject({ version: 1 });
  await page.screenshot({ path: "test-results/reset-undone.png", fullPage: true });

  await page.goto(`/audit?target=service:${serviceId}&action=reset.undo_complete`);
  await expect(audit.getByRole("row").filter({ hasText: "reset.undo_complete" })).toContainText("replay postponed");
});
