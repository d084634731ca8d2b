import { expect, test } from "@playwright/test";
import { checkAll, registerService, uniqueId } from "./support/api";
import { beginKey, ids, setScope } from "./support/console-data";

test("a refused filter keeps its text, is marked invalid and never claims the service is empty", async ({ page, request }) => {
  const serviceId = uniqueId("e2e-filters");
  await registerService(request, serviceId);
  await checkAll(request, ids("f-", 12).map((messageId) => ({ serviceId, messageId, payload: { v: 1 } })));

  await page.goto(`/services/${serviceId}?minVersion=abc`);
  const minVersion = page.getByLabel("At least versions");
  await expect(minVersion).toHaveValue("abc");
  await expect(minVersion).toHaveAttribute("aria-invalid", "true");
  await expect(page.getByTestId("invalid-filters")).toBeVisible();
  await expect(page.getByText("This service has no keys yet.")).toHaveCount(0);
  await expect(page.getByText("No keys match these filters.")).toHaveCount(0);

  await page.goto(`/services/${serviceId}?from=yesterday`);
  await expect(page.getByLabel("Changed from (UTC)")).toHaveValue("yesterday");
  await expect(page.getByLabel("Changed from (UTC)")).toHaveAttribute("aria-invalid", "true");

  await page.goto(`/services/${serviceId}?from=2025-02-01T10:00&to=2025-01-01T10:00`);
  await expect(page.getByLabel("Changed before (UTC)")).toHaveAttribute("aria-invalid", "true");
  await expect(page.getByLabel("Changed before (UTC)")).toHaveValue("2025-01-01T10:00");
  await expect(page.getByTestId("field-error")).toContainText("must be after the start");
  await page.screenshot({ path: "test-results/keys-invalid-filter.png", fullPage: true });

  // Correcting the value lists the keys with their count.
  await page.goto(`/services/${serviceId}?minVersion=abc`);
  await page.getByLabel("At least versions").fill("1");
  await page.getByRole("button", { name: "Apply" }).click();
  await expect(page.getByTestId("keys").locator("tbody tr")).toHaveCount(12);
  await expect(page.getByTestId("key-total")).toHaveText("12 keys");
});

test("an idempotency scope that is not valid or not stored is said so, never 'null'", async ({ page }) => {
  await page.goto("/idempotency?scope=%25%25%25");
  await expect(page.locator("main")).not.toContainText("null");
  await expect(page.getByLabel("Scope", { exact: true })).toHaveValue("%%%");
  await expect(page.getByLabel("Scope", { exact: true })).toHaveAttribute("aria-invalid", "true");
  await expect(page.getByTestId("invalid-filters")).toBeVisible();
  await page.goto("/idempotency?scope=no-such-scope-here");
  await expect(page.getByTestId("field-error")).toContainText("There is no idempotency scope named “no-such-scope-here”.");
});

test("a refused status or page link keeps the chosen scope, is named, and never claims the scope is empty", async ({ page, request }) => {
  const scope = uniqueId("e2e-filter-scope");
  await setScope(request, scope, { lockSeconds: 60 });
  await beginKey(request, scope, "held-1", { amount: 1 });
  for (const query of [`status=bogus`, `after=${"x".repeat(3000)}`]) {
    await page.goto(`/idempotency?scope=${scope}&${query}`);
    await expect(page.locator("main")).not.toContainText("null");
    await expect(page.getByText(/No .* keys in scope/)).toHaveCount(0);
    await expect(page.getByLabel("Scope", { exact: true })).toHaveValue(scope);
    await expect(page.getByTestId("invalid-filters")).toBeVisible();
    await expect(page.getByTestId("field-error")).toContainText(query.startsWith("status") ? "status" : "page link");
  }
  // The tabs still lead to the scope's real list.
  await page.getByRole("link", { name: "In progress" }).click();
  await expect(page.getByTestId("idempotency-keys").getByRole("row").filter({ hasText: "held-1" })).toHaveCount(1);
});
