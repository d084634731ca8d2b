import { expect, test } from "@playwright/test";
import { uniqueId } from "./support/api";
import { e2eSql } from "./support/sql";

test("the audit log pages back with Previous through the same entries", async ({ page }) => {
  const scope = uniqueId("e2e-audit-pages");
  // 55 entries for one scope, one page of 50 and one of 5, written directly: through the API so many
  // changes would spend the destructive-operation limit that the other specs' calls share.
  await e2eSql(
    `insert into audit_log (actor, actor_role, action, target, affected, reason, details)
     select 'e2e', 'admin', 'idempotency_scope.update', $1, 0, 'change ' || g, '{}'::jsonb from generate_series(1, 55) g`,
    [`idempotency_scope:${scope}`],
  );

  await page.goto(`/audit?target=idempotency_scope:${scope}`);
  const rows = page.getByTestId("audit").locator("tbody tr");
  await expect(rows).toHaveCount(50);
  await expect(page.getByTestId("prev-page")).toHaveCount(0);
  const firstPage = await rows.allTextContents();
  await page.getByTestId("next-page").click();
  await expect(rows).toHaveCount(5);
  await expect(page.getByTestId("next-page")).toHaveCount(0);
  await page.getByTestId("prev-page").click();
  await expect(rows).toHaveCount(50);
  expect(await rows.allTextContents()).toEqual(firstPage);
  await expect(page.getByTestId("prev-page")).toHaveCount(0);
  await expect(page.getByTestId("next-page")).toBeVisible();
});
