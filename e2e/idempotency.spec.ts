import { expect, test } from "@playwright/test";
import { uniqueId } from "./support/api";
import { beginKey, completeKey, setScope } from "./support/console-data";

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
  await expect(page).toHaveURL(new RegExp(`/idempotency\\?scope=${scope}&release=\\d+$`));
  // The list confirms what was released, read from the release's audit row; its link shows that row alone.
  const notice = page.getByTestId("released");
  await expect(notice).toContainText(`Released attempt 1 of key pay-1 in scope ${scope}`);
  await expect(page.getByText(`No in progress keys in scope ${scope}.`)).toBeVisible();
  const releasedAt = page.url();
  await notice.getByRole("link", { name: "audit log" }).click();
  await expect(page.getByTestId("audit").locator("tbody tr")).toHaveCount(1);
  await expect(page.getByTestId("audit").locator("tbody tr")).toContainText("pay-1");

  // A notice cannot be made up: not from URL text, not from another scope's or another action's audit row.
  const auditId = new URL(releasedAt).searchParams.get("release");
  for (const forged of [`released=pay-9&attempt=7`, `release=1`, `release=abc`]) {
    await page.goto(`/idempotency?scope=${scope}&${forged}`);
    await expect(page.getByTestId("idempotency-keys").or(page.getByText(`No in progress keys in scope ${scope}.`))).toBeVisible();
    await expect(page.getByTestId("released")).toHaveCount(0);
  }
  await page.goto(`/idempotency?scope=${uniqueId("other-scope")}&release=${auditId}`);
  await expect(page.getByTestId("released")).toHaveCount(0);

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

test("exact key search, Previous paging, and a key's short request hash and foldable response", async ({ page, context, request }) => {
  test.setTimeout(120_000);
  const scope = uniqueId("e2e-pages");
  await setScope(request, scope, { lockSeconds: 600 });
  const keys = Array.from({ length: 55 }, (_, i) => `k-${String(i + 1).padStart(3, "0")}`);
  for (const key of keys) await beginKey(request, scope, key, { n: key });

  await page.goto(`/idempotency?scope=${scope}`);
  const rows = page.getByTestId("idempotency-keys").locator("tbody tr");
  await expect(rows).toHaveCount(50);
  const firstPage = await rows.locator("td:first-child a").allTextContents();
  await page.getByTestId("next-page").click();
  await expect(rows).toHaveCount(5);
  await expect(rows.first()).toContainText("k-051");
  await page.getByTestId("prev-page").click();
  await expect(rows).toHaveCount(50);
  expect(await rows.locator("td:first-child a").allTextContents()).toEqual(firstPage);
  await expect(page.getByTestId("prev-page")).toHaveCount(0);

  // Exact search opens the key itself, whichever page it is on.
  await page.getByLabel(`Exact key in ${scope}`).fill("k-054");
  await page.getByRole("button", { name: "Open key" }).click();
  await expect(page).toHaveURL(/\/idempotency\/key\?/);
  await expect(page.getByRole("heading", { level: 1 })).toContainText("k-054");

  // A completed key: the request hash is shortened, copied whole; the stored response is pretty-printed and folds.
  const started = await beginKey(request, scope, "done-1", { amount: 5 });
  const body = JSON.stringify({ id: "pay_1", lines: [{ sku: "A", qty: 2 }], meta: { deep: { deeper: { deepest: true } } } });
  await completeKey(request, scope, "done-1", { amount: 5 }, started.attempt, { status: 201, body });
  await page.goto(`/idempotency/key?scope=${scope}&key=done-1`);
  const hashCell = page.getByTestId("idempotency-key").getByRole("row", { name: /Request hash/ });
  const shown = (await hashCell.locator("td").textContent()) ?? "";
  expect(shown).toMatch(/^[0-9a-f]{16}…/);
  await context.grantPermissions(["clipboard-read", "clipboard-write"]);
  await page.getByRole("button", { name: "Copy request hash" }).click();
  const copied = await page.evaluate(() => navigator.clipboard.readText());
  expect(copied).toMatch(/^[0-9a-f]{64}$/);
  expect(copied.startsWith(shown.slice(0, 16))).toBe(true);

  const response = page.getByTestId("response-body");
  await expect(response.locator("summary").first()).toContainText("3 fields");
  await expect(response.getByText('"pay_1"')).toBeVisible();
  // Deeper containers start folded; a click on their summary opens them.
  await expect(response.getByText('"sku"')).toBeHidden();
  await response.locator("details:not([open])").first().locator("summary").first().click();
  await expect(response.getByText('"sku"')).toBeVisible();
  // The top level folds too.
  await response.locator("summary").first().click();
  await expect(response.getByText('"pay_1"')).toBeHidden();
});
