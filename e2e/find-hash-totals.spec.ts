import { expect, test } from "@playwright/test";
import { checkAll, registerService, uniqueId } from "./support/api";
import { beginKey, claimAll, keyState, setScope } from "./support/console-data";

test("the lookup box finds a stored hash and an idempotency request hash across services and scopes", async ({ page, request }) => {
  const [serviceA, serviceB, scope] = [uniqueId("e2e-hash-a"), uniqueId("e2e-hash-b"), uniqueId("e2e-hash-scope")];
  const payload = { marker: uniqueId("same-payload") };
  await registerService(request, serviceA);
  await registerService(request, serviceB);
  await checkAll(request, [
    { serviceId: serviceA, messageId: "order-1", payload },
    { serviceId: serviceB, messageId: "order-9", payload },
    { serviceId: serviceB, messageId: "order-10", payload: { other: true } },
  ]);
  await setScope(request, scope, { lockSeconds: 60 });
  await beginKey(request, scope, "pay-1", payload);
  const { hash } = (await keyState(request, serviceA, "order-1"))!;
  expect(hash).toMatch(/^[0-9a-f]{64}$/);

  await page.goto("/services");
  const lookup = page.getByRole("search", { name: "Find an id" }).getByRole("searchbox");
  await lookup.fill(hash.toUpperCase());
  await lookup.press("Enter");
  const rows = page.getByTestId("find-results").locator("tbody tr");
  await expect(rows).toHaveCount(3);
  await expect(rows.filter({ hasText: serviceA })).toContainText("stored hash");
  await expect(rows.filter({ hasText: serviceB })).toContainText("order-9");
  await expect(rows.filter({ hasText: scope })).toContainText("request hash");
  // The page says how far a hash lookup looks, and why it is bounded.
  await expect(page.getByTestId("hash-scope")).toContainText("most recently changed keys");
  await expect(page.getByTestId("hash-scope")).toContainText("not indexed");
  await page.screenshot({ path: "test-results/find-hash.png", fullPage: true });
  await rows.filter({ hasText: serviceB }).getByRole("link").click();
  await expect(page).toHaveURL(new RegExp(`/services/${serviceB}/key\\?id=order-9$`));
});

test("lists show their totals: keys, idempotency keys per state, a group's stored records, audit entries", async ({ page, request }) => {
  const serviceId = uniqueId("e2e-totals");
  const group = uniqueId("e2e-totals-group");
  const scope = uniqueId("e2e-totals-scope");
  await registerService(request, serviceId);
  await checkAll(request, ["a", "b", "c"].map((messageId) => ({ serviceId, messageId, payload: { messageId } })));
  await claimAll(request, [{ consumerGroup: group, messageId: "m-1" }, { consumerGroup: group, messageId: "m-2" }]);
  await setScope(request, scope, { lockSeconds: 60 });
  await beginKey(request, scope, "pay-1", { n: 1 });
  await beginKey(request, scope, "pay-2", { n: 2 });

  await page.goto(`/services/${serviceId}`);
  await expect(page.getByTestId("key-total")).toHaveText("3 keys");
  await page.goto(`/idempotency?scope=${scope}`);
  await expect(page.getByTestId("idempotency-total")).toHaveText("2 in progress keys");
  await page.goto(`/groups/${group}`);
  await expect(page.getByTestId("group-stats")).toContainText("Stored records2");
  await page.goto("/audit?action=idempotency_scope.create");
  await expect(page.getByTestId("audit-total")).toHaveText(/^[\d,]+\+? entr(y|ies)/);
  await page.screenshot({ path: "test-results/audit-total.png", fullPage: true });
  // An actor filter is not counted (it could read the whole log): no total rather than a slow one.
  await page.goto("/audit?actor=nobody%40example.com");
  await expect(page.getByTestId("audit-total")).toHaveCount(0);
});
