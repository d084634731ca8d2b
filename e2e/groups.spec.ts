import { expect, test } from "@playwright/test";
import { uniqueId } from "./support/api";
import { claimAll } from "./support/console-data";

test("change a consumer group's TTL after previewing its effect", async ({ page, request }) => {
  const group = uniqueId("e2e-group");
  const claims = Array.from({ length: 10 }, (_, i) => ({ consumerGroup: group, messageId: `m-${i}` }));
  await claimAll(request, claims);
  await claimAll(request, claims.slice(0, 4));

  await page.goto("/groups");
  const row = page.getByTestId("groups").getByRole("row").filter({ hasText: group });
  await expect(row).toContainText("1 d");
  await row.getByRole("link", { name: group }).click();
  await expect(page.getByTestId("group-stats")).toContainText("(default)");

  // Records claimed seconds ago: a 1-second window expires all ten of them at once.
  await page.waitForTimeout(1_500);
  await page.getByLabel("New TTL").fill("1");
  await page.getByLabel("Unit").selectOption("seconds");
  await page.getByRole("button", { name: "Preview effect" }).click();
  const preview = page.getByTestId("ttl-preview");
  await expect(preview).toContainText("From 1 d to 1 s: expires 10 records now");
  await page.screenshot({ path: "test-results/group-ttl-preview.png", fullPage: true });

  await page.getByLabel("Reason (for the audit log)").fill("consumers are idempotent downstream");
  await page.getByRole("button", { name: "Save TTL of 1 s" }).click();
  await expect(page.getByTestId("ttl-saved")).toContainText("10 records expired at once");
  const history = page.getByTestId("ttl-history");
  await expect(history.getByRole("row").filter({ hasText: "consumers are idempotent downstream" })).toContainText("1 d → 1 s");
  await expect(page.getByTestId("group-stats")).not.toContainText("(default)");

  // Sliding window: a change of the setting alone, previewed and saved with a reason.
  await page.getByLabel("Sliding window").check();
  await page.getByRole("button", { name: "Preview effect" }).click();
  await expect(preview).toContainText("Sliding on");
  await page.getByLabel("Reason (for the audit log)").fill("redelivered every 50 minutes");
  await page.getByRole("button", { name: "Save TTL of 1 s, sliding" }).click();
  await expect(page.getByTestId("group-stats")).toContainText("1 s, sliding");

  // Exact lookup of one claim in the group.
  await page.getByLabel("Exact message id").fill("m-3");
  await page.getByRole("form", { name: "Find a claim" }).getByRole("button", { name: "Find" }).click();
  await expect(page.getByTestId("claim-result")).toContainText("m-3");
  // The same window a duplicate answer carries: when it started and ended.
  await expect(page.getByTestId("claim-window")).toContainText(/Window: started .+, ended .+\./);
  await page.getByLabel("Exact message id").fill("never-claimed");
  await page.getByRole("form", { name: "Find a claim" }).getByRole("button", { name: "Find" }).click();
  await expect(page.getByTestId("claim-result")).toContainText("No claim of never-claimed is stored");
  await page.screenshot({ path: "test-results/group.png", fullPage: true });
});
