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

  // Exact lookup of one claim in the group, while its window is a day: once the TTL below is a
  // second, the node's cleanup may remove the expired records at any moment.
  await page.getByLabel("Exact message id").fill("m-3");
  await page.getByRole("form", { name: "Find a claim" }).getByRole("button", { name: "Find" }).click();
  await expect(page.getByTestId("claim-result")).toContainText("m-3");
  // The same window a duplicate answer carries: when it started and when it ends.
  await expect(page.getByTestId("claim-window")).toContainText(/Window: started .+, ends .+\./);
  await page.getByLabel("Exact message id").fill("never-claimed");
  await page.getByRole("form", { name: "Find a claim" }).getByRole("button", { name: "Find" }).click();
  await expect(page.getByTestId("claim-result")).toContainText("No claim of never-claimed is stored");

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

  await page.screenshot({ path: "test-results/group.png", fullPage: true });
});

test("the lookup box opens a found claim on its group's page", async ({ page, request }) => {
  const group = uniqueId("e2e-find-group");
  const messageId = uniqueId("claimed-msg");
  await claimAll(request, [{ consumerGroup: group, messageId }]);
  await page.goto(`/find?q=${messageId}`);
  await page.getByTestId("find-results").getByRole("link", { name: messageId }).click();
  await expect(page).toHaveURL(new RegExp(`/groups/${group}\\?claim=${messageId}$`));
  await expect(page.getByTestId("claim-result")).toContainText(messageId);
  await expect(page.getByTestId("claim-window")).toContainText(/Window: started .+, ends .+\./);
});

test("a consumer group is created by its own form, reviewed first; an id already in use is refused", async ({ page, request }) => {
  const group = uniqueId("e2e-new-group");
  await page.goto("/groups");
  await page.getByRole("button", { name: "New consumer group…" }).click();
  const form = page.getByRole("region", { name: "New consumer group" });
  await form.getByLabel("Group id").fill(group);
  await form.getByLabel("TTL").fill("2");
  await form.getByLabel("Unit").selectOption("hours");
  await form.getByLabel("Sliding window").check();
  await form.getByRole("button", { name: "Review" }).click();
  await expect(form.getByTestId("new-group-preview")).toContainText(`Creates consumer group ${group} with a window of 2 h, sliding`);
  const create = form.getByRole("button", { name: `Create ${group}` });
  await expect(create).toBeDisabled();
  await form.getByLabel("Reason (for the audit log)").fill("new email consumer");
  await create.click();
  await expect(page).toHaveURL(new RegExp(`/groups/${group}$`));
  await expect(page.getByTestId("group-stats")).toContainText("2 h, sliding");

  // The same id again: refused, and the group keeps its window.
  const other = uniqueId("e2e-used-group");
  await claimAll(request, [{ consumerGroup: other, messageId: "m-1" }]);
  await page.goto("/groups");
  await page.getByRole("button", { name: "New consumer group…" }).click();
  await form.getByLabel("Group id").fill(other);
  await form.getByLabel("TTL").fill("5");
  await form.getByRole("button", { name: "Review" }).click();
  await form.getByLabel("Reason (for the audit log)").fill("typo");
  await form.getByRole("button", { name: `Create ${other}` }).click();
  await expect(form.getByTestId("action-error")).toContainText(`consumer group ${other} already exists`);
  await page.goto(`/groups/${other}`);
  await expect(page.getByTestId("group-stats")).toContainText("(default)");
  await page.goto(`/audit?action=consumer_group.create&target=consumer_group:${group}`);
  await expect(page.getByTestId("audit").locator("tbody tr").filter({ hasText: "new email consumer" })).toHaveCount(1);
});
