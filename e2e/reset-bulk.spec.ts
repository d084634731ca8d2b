import { readFile } from "node:fs/promises";
import { expect, test } from "@playwright/test";
import { checkAll, registerService, uniqueId } from "./support/api";
import { ids } from "./support/console-data";

test("the key browser's filter, version included, opens a reset whose preview is exactly its keys; the whole selection downloads as CSV", async ({ page, request }) => {
  const serviceId = uniqueId("e2e-reset-browser");
  await registerService(request, serviceId, { historyDepth: 2 });
  const keys = ids("ord-", 60);
  await checkAll(request, keys.map((messageId) => ({ serviceId, messageId, payload: { v: 1 } })));
  const changed = keys.filter((_, i) => i % 4 === 0);
  await checkAll(request, changed.map((messageId) => ({ serviceId, messageId, payload: { v: 2 } })));
  await checkAll(request, [{ serviceId, messageId: "other-1", payload: { v: 1 } }, { serviceId, messageId: "other-1", payload: { v: 2 } }]);

  // Prefix and a version bound: the browser shows the changed orders only.
  await page.goto(`/services/${serviceId}?prefix=ord-&minVersion=2`);
  await expect(page.getByTestId("keys").locator("tbody tr")).toHaveCount(changed.length);
  await page.getByRole("link", { name: "Reset these keys…" }).click();
  await expect(page).toHaveURL(/\/reset\?kind=last_seen/);
  await expect(page.getByTestId("browser-selection")).toContainText(`matches ${changed.length} keys`);
  await page.getByRole("button", { name: "Preview (dry run)" }).click();
  await expect(page.getByTestId("preview-count")).toHaveText(String(changed.length));
  for (const id of changed.slice(0, 3)) await expect(page.getByTestId("reset-preview")).toContainText(id);
  await expect(page.getByTestId("reset-preview")).not.toContainText("other-1");

  // A prefix alone stays the reset's own filter; the preview counts what the browser counts.
  await page.goto(`/services/${serviceId}?prefix=ord-`);
  await expect(page.getByTestId("key-total")).toContainText("60");
  await page.getByRole("link", { name: "Reset these keys…" }).click();
  await expect(page.getByLabel("Message id starts with")).toHaveValue("ord-");
  await page.getByRole("button", { name: "Preview (dry run)" }).click();
  await expect(page.getByTestId("preview-count")).toHaveText("60");
  await expect(page.getByTestId("reset-preview").locator("tbody tr")).toHaveCount(20);

  // The download holds all 60, not the sample of 20.
  const download = page.waitForEvent("download");
  await page.getByRole("button", { name: "Download all 60 as CSV" }).click();
  const file = await (await download).path();
  const lines = (await readFile(file, "utf8")).trimEnd().split("\r\n");
  expect(lines[0]).toBe('"message_id","at","version"');
  expect(lines.slice(1).map((line) => line.split(",")[0]!.replace(/"/g, ""))).toEqual([...keys].sort());
  expect((await download).suggestedFilename()).toBe(`weir-reset-preview-${serviceId}.csv`);
});
