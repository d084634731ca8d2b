import { expect, test } from "@playwright/test";
import { checkAll, registerService, uniqueId } from "./support/api";
import { keyState } from "./support/console-data";

test("explain shows the canonical form, hash and decision without changing state", async ({ page, request }) => {
  const serviceId = uniqueId("e2e-explain");
  await registerService(request, serviceId, { historyDepth: 2, ignoredPaths: ["/meta/sentAt"] });
  await checkAll(request, [{ serviceId, messageId: "B-007", payload: { total: 10, meta: { sentAt: "09:00" } } }]);
  const stored = await keyState(request, serviceId, "B-007");

  await page.goto(`/services/${serviceId}/key?id=B-007`);
  await expect(page.getByTestId("key-ref")).toContainText("none given");
  await page.getByRole("link", { name: "Explain a payload" }).click();
  await expect(page.getByLabel("Service id")).toHaveValue(serviceId);
  await expect(page.getByLabel("Message id")).toHaveValue("B-007");

  await page.getByLabel("Payload (JSON)").fill('{ "meta": { "sentAt": "09:05" }, "total": 10 }');
  await page.getByRole("button", { name: "Explain" }).click();
  const result = page.getByTestId("explanation");
  await expect(result).toContainText("check would answer duplicate");
  await expect(page.getByTestId("explain-hash")).toHaveText(stored!.hash);
  // A new service normalises: the `meta` its ignored path left empty is left out of what is hashed.
  await expect(page.getByTestId("canonical")).toHaveText('{"total":10}');
  await expect(page.getByTestId("explain-normalise")).toContainText("empty_containers, nulls, numbers");
  await expect(result).toContainText("/meta/sentAt");

  await page.getByLabel("Payload (JSON)").fill('{"total": 12, "meta": {"sentAt": "09:10"}}');
  await page.getByRole("button", { name: "Explain" }).click();
  await expect(result).toContainText("check would answer changed");
  await expect(result).toContainText("(version 2)");
  await expect(page.getByTestId("diff-table").getByRole("row").filter({ hasText: "/total" })).toContainText("12");
  await page.screenshot({ path: "test-results/explain.png", fullPage: true });

  await page.getByLabel("Payload (JSON)").fill('{"total": 1, "total": 2}');
  await page.getByRole("button", { name: "Explain" }).click();
  await expect(page.getByTestId("action-error")).toContainText("duplicate field");

  // Read only: the stored state did not move.
  expect(await keyState(request, serviceId, "B-007")).toEqual(stored);
});

test("a key stored before a settings change shows the settings and the hash it is compared under", async ({ page, request }) => {
  const serviceId = uniqueId("e2e-explain-old");
  await registerService(request, serviceId);
  await checkAll(request, [{ serviceId, messageId: "B-008", payload: { total: 10, meta: { sentAt: "09:00" } } }]);
  const stored = await keyState(request, serviceId, "B-008");
  await registerService(request, serviceId, { ignoredPaths: ["/meta"] });

  await page.goto(`/explain?service=${serviceId}&message=B-008`);
  await page.getByLabel("Payload (JSON)").fill('{"total": 10, "meta": {"sentAt": "09:00"}}');
  await page.getByRole("button", { name: "Explain" }).click();
  await expect(page.getByTestId("explanation")).toContainText("check would answer duplicate");
  await expect(page.getByTestId("explain-hash")).not.toHaveText(stored!.hash);
  await expect(page.getByTestId("stored-settings")).toContainText("Stored under hash settings version 1 (the service is at version 2; then normalising empty_containers, nulls, numbers)");
  await expect(page.getByTestId("stored-settings-hash")).toHaveText(stored!.hash);
});
