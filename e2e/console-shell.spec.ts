import AxeBuilder from "@axe-core/playwright";
import { expect, test } from "@playwright/test";
import { checkAll, registerService, uniqueId } from "./support/api";
import { inChunks } from "./support/console-data";

test("at phone width the pages are behind a menu button that opens, closes on Escape and on navigation", async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 800 });
  await page.goto("/services");
  const nav = page.getByRole("navigation", { name: "Console" });
  const menu = nav.getByRole("button", { name: "Menu" });
  const audit = nav.getByRole("link", { name: "Audit log" });
  await expect(menu).toHaveAttribute("aria-expanded", "false");
  await expect(audit).toBeHidden();
  // The lookup box and both switches stay on screen.
  for (const box of [page.getByRole("search", { name: "Find an id" }), page.getByRole("group", { name: "Colour scheme" }), page.getByRole("group", { name: "Time zone" })]) {
    const { x, width } = (await box.boundingBox())!;
    expect(x).toBeGreaterThanOrEqual(0);
    expect(x + width).toBeLessThanOrEqual(390);
  }

  // Keyboard: the button opens the menu, Escape closes it and gives the focus back.
  await menu.focus();
  await page.keyboard.press("Enter");
  await expect(menu).toHaveAttribute("aria-expanded", "true");
  await expect(audit).toBeVisible();
  await page.keyboard.press("Tab");
  await expect(nav.getByRole("link", { name: "Overview" })).toBeFocused();
  await page.keyboard.press("Escape");
  await expect(menu).toHaveAttribute("aria-expanded", "false");
  await expect(menu).toBeFocused();
  await expect(audit).toBeHidden();

  // Following a link closes it.
  await menu.click();
  await audit.click();
  await expect(page).toHaveURL(/\/audit$/);
  await expect(page.getByRole("heading", { level: 1 })).toContainText("Audit");
  await expect(menu).toHaveAttribute("aria-expanded", "false");
  await expect(nav.getByRole("link", { name: "Reset" })).toBeHidden();
  await page.screenshot({ path: "test-results/shell-390.png", fullPage: true });

  // Wide: no menu button, every page on one line.
  await page.setViewportSize({ width: 1440, height: 900 });
  await expect(menu).toBeHidden();
  await expect(audit).toBeVisible();
  await expect(audit).toHaveAttribute("aria-current", "page");
});

test("the small things: favicon, a 404 that names the id and offers Find, counts formatted alike, a prefix example from real ids, tap targets, landmarks", async ({ page, request }) => {
  const favicon = await request.get("/favicon.ico");
  expect(favicon.status()).toBe(200);
  expect(favicon.headers()["content-type"]).toMatch(/image\/(x-icon|vnd\.microsoft\.icon)/);

  const missing = uniqueId("e2e-missing");
  expect((await page.goto(`/services/${missing}`))?.status()).toBe(404);
  await expect(page.getByTestId("missing-id")).toContainText(missing);
  await page.getByTestId("missing-id").getByRole("link", { name: new RegExp(`^Find “${missing}”`) }).click();
  await expect(page).toHaveURL(new RegExp(`/find\\?q=${missing}$`));
  await expect(page.locator("main")).toContainText(missing);

  // 1,348 keys: the reset button says "1,348" like every other count.
  const serviceId = uniqueId("e2e-basics");
  await registerService(request, serviceId, { historyDepth: 2 });
  const keys = Array.from({ length: 1348 }, (_, i) => ({ serviceId, messageId: `order-${String(10_000 + i)}`, payload: { n: i, nested: { a: [1, 2] } } }));
  await inChunks(keys, 1000, (chunk) => checkAll(request, chunk));
  await page.goto(`/services/${serviceId}`);
  await expect(page.getByLabel("Message id starts with")).toHaveAttribute("placeholder", /^order-1/);
  await page.goto(`/reset?kind=last_seen&subject=${serviceId}&mode=filter`);
  await page.getByRole("button", { name: "Preview (dry run)" }).click();
  await expect(page.getByRole("button", { name: "Reset 1,348 rows", exact: true })).toBeVisible();

  // Copy buttons and the payload's expand arrows are at least 24 x 24 CSS px.
  await page.goto(`/services/${serviceId}/key?id=order-10000`);
  const targets = [page.getByTestId("copy").first(), page.locator("main summary").first()];
  for (const target of targets) {
    await expect(target).toBeVisible();
    const { width, height } = (await target.boundingBox())!;
    expect(width).toBeGreaterThanOrEqual(24);
    expect(height).toBeGreaterThanOrEqual(24);
  }

  // The services list says what its sparkline plots.
  await page.goto("/services");
  await expect(page.getByRole("columnheader", { name: "Duplicate rate per hour" })).toBeVisible();

  // Every piece of content sits in a landmark (the session bar included); no table has an empty header.
  for (const path of ["/", "/services", `/services/${serviceId}`]) {
    await page.goto(path);
    const results = await new AxeBuilder({ page }).withRules(["region", "empty-table-header"]).analyze();
    expect(results.violations.map((v) => `${path}: ${v.id} ${v.nodes.map((n) => n.target.join(" ")).join(" | ")}`)).toEqual([]);
  }
});
