import { expect, test } from "@playwright/test";
import { uniqueId } from "./support/api";

test.use({ timezoneId: "America/New_York", locale: "de-DE" });

test("revoking a token needs a reason and a confirmation; times render alike in any zone and locale", async ({ page }) => {
  const errors: string[] = [];
  page.on("pageerror", (err) => errors.push(err.message));
  page.on("console", (msg) => (msg.type() === "error" ? errors.push(msg.text()) : undefined));
  const name = uniqueId("e2e-revoke");

  await page.goto("/tokens");
  const form = page.getByRole("form", { name: "Create token" });
  await form.getByLabel("Name").fill(name);
  await form.getByLabel("Services").fill("*");
  await form.getByRole("button", { name: "Create token" }).click();
  await expect(page.getByTestId("new-token")).toContainText("weir_");
  await expect(page.getByRole("button", { name: "Copy token secret" })).toBeVisible();

  const row = page.getByRole("row").filter({ hasText: name });
  await row.getByRole("button", { name: `Revoke ${name}…` }).click();
  const confirm = row.getByRole("button", { name: `Revoke ${name}`, exact: true });
  await expect(confirm).toBeDisabled();
  await row.getByLabel("Reason (for the audit log)").fill("leaked in a CI log");
  await confirm.click();
  await expect(page.getByTestId("token-notice")).toContainText(`Token “${name}”`);
  await expect(row).toContainText("revoked");

  await page.goto(`/audit?action=token.revoke`);
  await expect(page.getByTestId("audit").locator("tbody tr").filter({ hasText: "leaked in a CI log" })).toHaveCount(1);

  await page.goto("/tokens");
  await expect(page.getByRole("row").filter({ hasText: name }).locator("time").first()).toHaveAttribute("title", / UTC$/);
  expect(errors.filter((e) => /hydrat|#418|#423|#425/i.test(e))).toEqual([]);
});

test("the API refuses to revoke a token without a reason, naming the field, and keeps the token", async ({ request }) => {
  const created = await request.post("/api/v1/tokens", { data: { name: uniqueId("e2e-keep"), services: ["*"] } });
  expect(created.status()).toBe(201);
  const { id } = (await created.json()).details as { id: string };
  for (const data of [undefined, { reason: "   " }, {}]) {
    const refused = await request.delete(`/api/v1/tokens/${id}`, data === undefined ? undefined : { data });
    expect(refused.status()).toBe(400);
    expect((await refused.json()).error).toMatchObject({ code: "invalid_request", field: "reason" });
  }
  const listed = (await (await request.get("/api/v1/tokens")).json()).tokens as { id: string; revokedAt: string | null }[];
  expect(listed.find((t) => t.id === id)?.revokedAt).toBeNull();
  expect((await request.delete(`/api/v1/tokens/${id}`, { data: { reason: "rotated" } })).status()).toBe(200);
});
