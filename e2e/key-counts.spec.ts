import { expect, test } from "@playwright/test";
import { registerService, uniqueId } from "./support/api";
import { e2eSql } from "./support/sql";

const addKeys = (serviceId: string, n: number) =>
  e2eSql(
    `insert into last_seen (service_id, message_id, hash, version, first_seen, last_changed)
     select $1, 'k-' || g, sha256(convert_to($1 || g, 'UTF8')), 1, now(), now() from generate_series(1, $2::int) g`,
    [serviceId, n],
  );

test("the services list shows true key counts: exact for small services, a marked estimate for large ones", async ({ page, request }) => {
  const prefix = uniqueId("e2e-keys");
  const sizes = { [`${prefix}-a`]: 500, [`${prefix}-b`]: 4_321, [`${prefix}-c`]: 200_000 };
  for (const [id, n] of Object.entries(sizes)) {
    await registerService(request, id);
    await addKeys(id, n);
  }
  await page.goto(`/services?q=${prefix}&sort=keys`);
  const rows = page.getByTestId("services").locator("tbody tr");
  await expect(rows).toHaveCount(3);
  const count = (i: number) => rows.nth(i).getByTestId("key-count");
  // Largest first: an estimate near 200,000 marked "≈" (statistics or a sample), never a cap.
  await expect(count(0)).toHaveText(/^≈ (19\d|20\d),\d{3}$/);
  await expect(count(0).locator("abbr")).toHaveAttribute("title", /estimate/);
  await expect(count(1)).toHaveText("4,321");
  await expect(count(2)).toHaveText("500");
  await expect(page.getByTestId("services")).not.toContainText("+");

  // Once the table is analysed, the estimate comes from the planner's statistics, still marked.
  await e2eSql("analyze last_seen");
  await page.reload();
  await expect(count(0)).toHaveText(/^≈ (19\d|20\d),\d{3}$/);
  await expect(count(2)).toHaveText("500");
  await page.screenshot({ path: "test-results/services-key-counts.png", fullPage: true });
});
