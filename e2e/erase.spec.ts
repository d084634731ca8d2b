import { expect, test } from "@playwright/test";
import { checkAll, registerService, uniqueId } from "./support/api";
import { keyState } from "./support/console-data";

test("erase one key: preview rows per table, reason and the typed key, then it is gone and the other key stays", async ({ page, request }) => {
  const serviceId = uniqueId("e2e-erase");
  await registerService(request, serviceId, { historyDepth: 2 });
  await checkAll(request, [
    { serviceId, messageId: "alice@example.com", payload: { v: 1 } },
    { serviceId, messageId: "alice@example.com", payload: { v: 2 } },
    { serviceId, messageId: "bob@example.com", payload: { v: 1 } },
  ]);

  await page.goto("/erase");
  await page.getByLabel("Service, group or scope id").fill(serviceId);
  await page.getByLabel("Key (message id or idempotency key)").fill("alice@example.com");
  await page.getByRole("button", { name: "Preview (dry run)" }).click();
  const preview = page.getByTestId("erase-preview");
  await expect(preview.getByRole("row").filter({ hasText: "payload_versions" })).toContainText("2");
  await expect(preview.getByRole("row").filter({ hasText: /^last_seen/ })).toContainText("1");

  const erase = page.getByRole("button", { name: "Erase this key" });
  await page.getByLabel("Reason (for the audit log)").fill("GDPR request 118");
  await expect(erase).toBeDisabled();
  await page.getByLabel("Type the key again to confirm").fill("alice@example.com");
  await erase.click();
  await expect(page.getByTestId("erase-done")).toContainText("key recorded as sha256:");
  expect(await keyState(request, serviceId, "alice@example.com")).toBeNull();
  expect(await keyState(request, serviceId, "bob@example.com")).not.toBeNull();
});
