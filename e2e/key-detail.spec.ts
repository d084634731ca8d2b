import { expect, test } from "@playwright/test";
import { checkAll, registerService, uniqueId } from "./support/api";

test("open a key and read the field-level diff between two of its versions", async ({ page, request }) => {
  const serviceId = uniqueId("e2e-detail");
  await registerService(request, serviceId, { historyDepth: 5, ignoredPaths: ["/meta/sentAt"] });
  const hostile = "<img src=x onerror=alert(1)>";
  const versions = [
    { status: "open", total: 10, customer: { name: "Ada" }, meta: { sentAt: "t1" } },
    { status: "paid", total: 10, customer: { name: "Ada" }, meta: { sentAt: "t2" } },
    { status: "paid", total: 12, customer: { name: hostile, vip: true }, meta: { sentAt: "t3" } },
  ];
  const results = await checkAll(request, versions.map((payload) => ({ serviceId, messageId: "order/1", payload })));
  expect(results.map((r) => r.version)).toEqual([1, 2, 3]);

  await page.goto(`/services/${serviceId}`);
  await page.getByRole("link", { name: "order/1" }).click();
  await expect(page.getByTestId("key-state")).toContainText("3");
  await expect(page.getByText("ignored here: /meta/sentAt").first()).toBeVisible();

  // Default: the two newest versions.
  const diff = page.getByTestId("diff-table");
  await expect(page.getByRole("heading", { name: "v2 → v3" })).toBeVisible();
  await expect(diff.getByRole("row").filter({ hasText: "/total" })).toContainText("changed");
  await expect(diff.getByRole("row").filter({ hasText: "/customer/vip" })).toContainText("added");

  await page.getByLabel("From version").selectOption("1");
  await page.getByLabel("To version").selectOption("3");
  await page.getByRole("button", { name: "Compare" }).click();
  await expect(page).toHaveURL(/from=1&to=3/);
  await expect(page.getByRole("heading", { name: "v1 → v3" })).toBeVisible();
  const status = diff.getByRole("row").filter({ hasText: "/status" });
  await expect(status).toContainText('"open"');
  await expect(status).toContainText('"paid"');
  await expect(diff.getByRole("row").filter({ hasText: "/meta/sentAt" })).toContainText("not hashed");

  // Payloads are untrusted: the markup shows as text and never becomes an element.
  await expect(diff.getByRole("row").filter({ hasText: "/customer/name" })).toContainText(hostile);
  await expect(page.locator("img[src=x]")).toHaveCount(0);
  await page.screenshot({ path: "test-results/key-detail.png", fullPage: true });
});

test("a key stored before its service's hash settings changed says so, and its replay stays a duplicate", async ({ page, request }) => {
  const serviceId = uniqueId("e2e-hashver");
  await registerService(request, serviceId, { historyDepth: 2 });
  const order = { order: { id: 7, total: 10 }, sentAt: "t1" };
  await checkAll(request, [{ serviceId, messageId: "order/7", payload: order }]);
  await registerService(request, serviceId, { historyDepth: 2, includedPaths: ["/order"] });

  await page.goto(`/services/${serviceId}`);
  await expect(page.getByText("hashes only /order")).toBeVisible();
  await page.getByRole("link", { name: "order/7" }).click();
  const hashed = page.getByRole("region", { name: "What is hashed" });
  await expect(hashed).toContainText("Only /order");
  await expect(hashed).toContainText("this key’s hash was made under v1");

  // The same event again: a duplicate; the key moves to v2 (its kept payload hashed under it), which leaves sentAt out.
  const [replay, resent] = await checkAll(request, [
    { serviceId, messageId: "order/7", payload: order },
    { serviceId, messageId: "order/7", payload: { ...order, sentAt: "t2" } },
  ]);
  expect(replay).toMatchObject({ decision: "duplicate", version: 1, hashVersion: 2 });
  expect(resent).toMatchObject({ decision: "duplicate", version: 1 });
  await page.reload();
  await expect(hashed).toContainText("which this key’s hash was made under");
});
