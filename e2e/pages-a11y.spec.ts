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

/** How far the page is wider than the viewport (0 when nothing scrolls sideways), and how many lines the navigation takes. */
async function fit(page: Page): Promise<{ overflow: number; navLines: number }> {
  return page.evaluate(() => {
    const tops = Array.from(document.querySelectorAll(".nav-links a"), (a) => Math.round(a.getBoundingClientRect().top));
    return { overflow: document.scrollingElement!.scrollWidth - window.innerWidth, navLines: new Set(tops).size };
  });
}

test("every page at 360, 390, 1280 and 1440 px, light and dark: main landmark, skip link, nothing wider than the viewport, one navigation line when wide, 0 serious or critical axe violations", async ({ page, request, browser }) => {
  test.setTimeout(480_000);
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
    ["erase", "/erase"],
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
  const widths = { light: [1440, 390, 360], dark: [390, 1440, 1280] } as const;
  for (const scheme of ["light", "dark"] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    for (const [name, path] of pages) {
      for (const [i, width] of widths[scheme].entries()) {
        await page.setViewportSize({ width, height: 900 });
        if (i === 0) await page.goto(path);
        await expect(page.locator("main")).toHaveCount(1);
        await expect(page.locator("h1").first()).toBeVisible();
        const { overflow, navLines } = await fit(page);
        if (overflow > 0) problems.push(`${scheme} ${width} px ${path}: ${overflow} px wider than the viewport`);
        if (width >= 1280 && navLines !== 1) problems.push(`${scheme} ${width} px ${path}: the navigation takes ${navLines} lines`);
        // axe once per page and scheme, at phone width in dark and at desktop width in light.
        if (i === 0) for (const line of await seriousViolations(page)) problems.push(`${scheme} ${width} px ${path}: ${line}`);
        await page.screenshot({ path: `test-results/pages/${name}-${scheme}-${width}.png`, fullPage: true });
      }
    }
    // The sign-in page, as a signed-out visitor sees it.
    const signedOut = await browser.newContext({ storageState: { cookies: [], origins: [] }, colorScheme: scheme, viewport: { width: 390, height: 800 } });
    const visitor = await signedOut.newPage();
    await visitor.goto(`${test.info().project.use.baseURL}/sign-in`);
    await expect(visitor.locator("h1").first()).toBeVisible();
    if ((await fit(visitor)).overflow > 0) problems.push(`${scheme} 390 px /sign-in: wider than the viewport`);
    for (const line of await seriousViolations(visitor)) problems.push(`${scheme} /sign-in: ${line}`);
    await visitor.screenshot({ path: `test-results/pages/sign-in-${scheme}.png`, fullPage: true });
    await signedOut.close();
  }
  expect(problems).toEqual([]);

  await page.setViewportSize({ width: 1280, height: 720 });
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
