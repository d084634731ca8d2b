import AxeBuilder from "@axe-core/playwright";
import { expect, test, type Page } from "@playwright/test";
import { checkAll, registerService, uniqueId } from "./support/api";
import { beginKey, claimAll, keyState, setScope } from "./support/console-data";

/** A minute `n` minutes ago as the console's from/to parameters give it (UTC). */
const minuteAgo = (n: number) => new Date(Math.floor(Date.now() / 60_000) * 60_000 - n * 60_000).toISOString().slice(0, 16);

/** Serious and critical axe findings on the page as it is now, as readable lines. */
async function seriousViolations(page: Page): Promise<string[]> {
  const results = await new AxeBuilder({ page }).withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "best-practice"]).analyze();
  return results.violations
    .filter((v) => v.impact === "serious" || v.impact === "critical")
    .map((v) => `${v.id} (${v.impact}): ${v.nodes.map((n) => n.target.join(" ")).slice(0, 3).join(" | ")}`);
}

test("every page: main landmark, skip link, 0 serious or critical axe violations, light and dark screenshots", async ({ page, request, browser }) => {
  test.setTimeout(240_000);
  const serviceId = uniqueId("e2e-a11y");
  const group = uniqueId("e2e-a11y-group");
  const scope = uniqueId("e2e-a11y-scope");
  await registerService(request, serviceId, { historyDepth: 3 });
  await checkAll(request, [
    { serviceId, messageId: "order-1", payload: { status: "open", total: 10 } },
    { serviceId, messageId: "order-1", payload: { status: "paid", total: 10 } },
    { serviceId, messageId: "order-2", payload: { status: "open" } },
  ]);
  await claimAll(request, [{ consumerGroup: group, messageId: "order-1" }, { consumerGroup: group, messageId: "order-1" }]);
  await setScope(request, scope, { lockSeconds: 60 });
  await beginKey(request, scope, "pay-1", { amount: 5 });

  // A reset of one key, for the reset detail page (with its named progress bar).
  await page.goto(`/reset?kind=last_seen&subject=${serviceId}&mode=filter&prefix=order-2`);
  await page.getByRole("button", { name: "Preview (dry run)" }).click();
  await page.getByLabel("Reason (for the audit log)").fill("a11y walk");
  const confirm = page.getByLabel(`Type "${serviceId}" to confirm`);
  if ((await confirm.count()) > 0) await confirm.fill(serviceId);
  await page.getByRole("button", { name: "Reset 1 row", exact: true }).click();
  await expect(page).toHaveURL(/\/reset\/\d+$/);
  await expect(page.getByRole("progressbar", { name: /Reset #\d+/ })).toBeVisible();
  const resetPath = new URL(page.url()).pathname;
  const { hash } = (await keyState(request, serviceId, "order-1"))!;
  const pages: [string, string][] = [
    ["overview", "/"],
    ["services", "/services"],
    ["keys", `/services/${serviceId}`],
    ["key", `/services/${serviceId}/key?id=order-1`],
    ["service-settings", `/services/${serviceId}/settings`],
    ["explain", `/explain?service=${serviceId}&message=order-1`],
    ["reset", "/reset"],
    ["reset-detail", resetPath],
    ["groups", "/groups"],
    ["group", `/groups/${group}`],
    ["idempotency", `/idempotency?scope=${scope}`],
    ["idempotency-key", `/idempotency/key?scope=${scope}&key=pay-1`],
    ["decisions", `/decisions?kind=service&subject=${serviceId}&from=${minuteAgo(5)}&to=${minuteAgo(-1)}`],
    ["incidents", "/incidents"],
    ["sources", `/sources?kind=service&subject=${serviceId}`],
    ["reports", "/reports"],
    ["audit", "/audit"],
    ["tokens", "/tokens"],
    ["users", "/users"],
    ["account", "/account"],
    ["find", "/find?q=order-1"],
    ["find-hash", `/find?q=${hash}`],
    ["find-empty", "/find"],
    ["not-found", "/services/no-such-service"],
    ["not-found-root", "/no-such-page"],
  ];
  const problems: string[] = [];
  for (const scheme of ["light", "dark"] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    for (const [name, path] of pages) {
      await page.goto(path);
      await expect(page.locator("main")).toHaveCount(1);
      await expect(page.locator("h1").first()).toBeVisible();
      for (const line of await seriousViolations(page)) problems.push(`${scheme} ${path}: ${line}`);
      await page.screenshot({ path: `test-results/pages/${name}-${scheme}.png`, fullPage: true });
    }
    // The sign-in page, as a signed-out visitor sees it.
    const signedOut = await browser.newContext({ storageState: { cookies: [], origins: [] }, colorScheme: scheme });
    const visitor = await signedOut.newPage();
    await visitor.goto(`${test.info().project.use.baseURL}/sign-in`);
    await expect(visitor.locator("h1").first()).toBeVisible();
    for (const line of await seriousViolations(visitor)) problems.push(`${scheme} /sign-in: ${line}`);
    await visitor.screenshot({ path: `test-results/pages/sign-in-${scheme}.png`, fullPage: true });
    await signedOut.close();
  }
  expect(problems).toEqual([]);

  // The skip link is the first thing a keyboard reaches and moves focus to the page's main content,
  // on a console page and on the sign-in page alike.
  const signedOut = await browser.newContext({ storageState: { cookies: [], origins: [] } });
  const visitor = await signedOut.newPage();
  await visitor.goto(`${test.info().project.use.baseURL}/sign-in`);
  for (const current of [page, visitor]) {
    if (current === page) await page.goto("/services");
    await current.keyboard.press("Tab");
    await expect(current.getByRole("link", { name: "Skip to content" })).toBeFocused();
    await current.keyboard.press("Enter");
    await expect(current.locator("main#main")).toBeFocused();
  }
  await signedOut.close();
});

test("dark mode follows the system, can be switched and is kept", async ({ page }) => {
  await page.emulateMedia({ colorScheme: "dark" });
  await page.goto("/services");
  const background = () => page.evaluate(() => getComputedStyle(document.body).backgroundColor);
  expect(await background()).toBe("rgb(17, 19, 21)");
  const schemes = page.getByRole("group", { name: "Colour scheme" });
  await schemes.getByRole("button", { name: "Light" }).click();
  expect(await background()).toBe("rgb(247, 247, 245)");
  await page.reload();
  await expect(page.locator("html")).toHaveAttribute("data-theme", "light");
  expect(await background()).toBe("rgb(247, 247, 245)");
  await expect(schemes.getByRole("button", { name: "Light" })).toHaveAttribute("aria-pressed", "true");
  await schemes.getByRole("button", { name: "System" }).click();
  expect(await background()).toBe("rgb(17, 19, 21)");
});

test("the journal's pages and the pages that show a key's decisions fit 360 px and 1440 px without scrolling sideways", async ({ page, request }) => {
  const serviceId = uniqueId("e2e-width");
  const group = uniqueId("e2e-width-group");
  const scope = uniqueId("e2e-width-scope");
  await registerService(request, serviceId);
  const key = "a-long-order-id-that-a-producer-might-send-0123456789-abcdefghijklmnopqrstuvwxyz";
  await checkAll(request, [1, 1, 2].map((v) => ({ serviceId, messageId: key, payload: { v } })));
  await claimAll(request, [{ consumerGroup: group, messageId: key }, { consumerGroup: group, messageId: key }]);
  await setScope(request, scope, { lockSeconds: 60 });
  await beginKey(request, scope, key, { amount: 5 });
  await page.waitForTimeout(2_500);
  const paths = [
    `/decisions?kind=service&subject=${serviceId}&from=${minuteAgo(5)}&to=${minuteAgo(-1)}&show=all`,
    `/incidents?from=${minuteAgo(5)}&to=${minuteAgo(-1)}`,
    `/sources?kind=service&subject=${serviceId}`,
    "/reports",
    `/services/${serviceId}/key?id=${key}`,
    `/services/${serviceId}/settings`,
    `/groups/${group}?claim=${key}`,
    `/idempotency?scope=${scope}`,
    `/idempotency/key?scope=${scope}&key=${key}`,
  ];
  const overflowing: string[] = [];
  for (const width of [360, 1440]) {
    await page.setViewportSize({ width, height: 900 });
    for (const path of paths) {
      await page.goto(path);
      await expect(page.locator("h1").first()).toBeVisible();
      const sideways = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
      if (sideways > 0) overflowing.push(`${width} px ${path}: ${sideways} px too wide`);
    }
  }
  expect(overflowing).toEqual([]);
});
