import AxeBuilder from "@axe-core/playwright";
import { expect, type Page } from "@playwright/test";

/**
 * The page as it is at 360 and 1440 px: nothing wider than the viewport, and no serious or critical
 * axe finding, for the parts of a list only a long list shows (a pager, a "show all" note).
 */
export async function expectFitsAndAxeClean(page: Page): Promise<void> {
  for (const width of [360, 1440]) {
    await page.setViewportSize({ width, height: 800 });
    const overflow = await page.evaluate(() => document.scrollingElement!.scrollWidth - window.innerWidth);
    expect(overflow, `${width} px: wider than the viewport`).toBeLessThanOrEqual(0);
    const results = await new AxeBuilder({ page }).withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "best-practice"]).analyze();
    const serious = results.violations.filter((v) => v.impact === "serious" || v.impact === "critical").map((v) => `${width} px: ${v.id}`);
    expect(serious).toEqual([]);
  }
}
