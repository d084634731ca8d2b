import { expect, test } from "@playwright/test";
import { uniqueId } from "./support/api";
import { beginKey, setScope } from "./support/console-data";

test("release every stuck key of a scope: previewed, reasoned, released at once, audited; a live key stays held", async ({ page, request }) => {
  const scope = uniqueId("e2e-bulk-scope");
  await setScope(request, scope, { lockSeconds: 1 });
  for (const key of ["order-1", "order-2", "order-3"]) expect(await beginKey(request, scope, key, { key })).toMatchObject({ outcome: "started" });
  await page.waitForTimeout(1_200);
  await setScope(request, scope, { lockSeconds: 600 });
  expect(await beginKey(request, scope, "order-live", { key: "order-live" })).toMatchObject({ outcome: "started" });

  await page.goto(`/idempotency?scope=${scope}`);
  await expect(page.getByTestId("idempotency-keys").getByRole("row").filter({ hasText: "stuck" })).toHaveCount(3);
  const panel = page.getByRole("region", { name: "Release stuck keys" });
  await panel.getByRole("button", { name: "Preview stuck keys" }).click();
  const preview = panel.getByTestId("stuck-preview");
  await expect(preview).toContainText(`3 stuck keys in ${scope}`);
  for (const key of ["order-1", "order-2", "order-3"]) await expect(preview).toContainText(key);
  await expect(preview).not.toContainText("order-live");
  const go = panel.getByRole("button", { name: "Release 3 stuck keys" });
  await expect(go).toBeDisabled();
  await panel.getByLabel("Reason (for the audit log)").fill("payment workers crashed");
  await page.screenshot({ path: "test-results/idempotency-release-stuck.png", fullPage: true });
  await go.click();
  await expect(panel.getByTestId("stuck-released")).toContainText(`Released 3 stuck keys in scope ${scope}`);
  // Only the live key is in progress now; a retry of a released one starts its next attempt.
  await expect(page.getByTestId("idempotency-keys").getByRole("row").filter({ hasText: "order-" })).toHaveCount(1);
  await expect(page.getByTestId("idempotency-keys")).toContainText("order-live");
  expect(await beginKey(request, scope, "order-2", { key: "order-2" })).toMatchObject({ outcome: "started", attempt: 2 });

  await panel.getByRole("link", { name: "Audit log" }).click();
  const audit = page.getByTestId("audit").locator("tbody tr");
  await expect(audit).toHaveCount(1);
  await expect(audit).toContainText("payment workers crashed");
});
