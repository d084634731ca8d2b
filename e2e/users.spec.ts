import { expect, test, type Browser } from "@playwright/test";
import { uniqueId } from "./support/api";
import { e2eSql } from "./support/sql";
import { storageStateOf } from "./support/users";

/** Signs in on the real form; a disabled user is refused as a wrong password is. */
async function expectSignInRefused(browser: Browser, email: string, password: string) {
  const context = await browser.newContext({ storageState: { cookies: [], origins: [] } });
  const page = await context.newPage();
  await page.goto("/sign-in");
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill(password);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page.getByRole("alert").filter({ hasText: "wrong email or password" })).toBeVisible();
  await expect(page.getByTestId("session-bar")).toHaveCount(0);
  await context.close();
}

test("an admin creates a user, changes their role, resets their password and disables them, each audited with its reason", async ({ page, browser }) => {
  const email = `${uniqueId("e2e-user")}@e2e.weir.test`;
  await page.goto("/");
  await page.getByRole("navigation", { name: "Console" }).getByRole("link", { name: "Users" }).click();
  await expect(page).toHaveURL(/\/users$/);
  await expect(page.getByRole("heading", { level: 1, name: "Users" })).toBeVisible();

  const form = page.getByRole("form", { name: "Create user" });
  await form.getByLabel("Email").fill(email);
  await form.getByLabel("Role").selectOption("viewer");
  await form.getByRole("button", { name: "Create user" }).click();
  const firstPassword = (await page.getByTestId("new-password").textContent())!.trim();
  expect(firstPassword.length).toBeGreaterThanOrEqual(24);
  const row = page.locator(`[data-testid="user-row"][data-email="${email}"]`);
  await expect(row).toContainText("viewer");
  await expect(row).toContainText("active");

  await row.getByRole("button", { name: `Change role of ${email}…` }).click();
  await row.getByLabel("New role").selectOption("operator");
  await row.getByLabel("Reason (for the audit log)").fill("joins on-call");
  await row.getByRole("button", { name: `Change role of ${email}` }).click();
  await expect(page.getByTestId("user-notice")).toContainText(`${email} is now operator`);
  await expect(row.getByRole("cell").nth(1)).toHaveText("operator");

  await row.getByRole("button", { name: `Reset password of ${email}…` }).click();
  await row.getByLabel("Reason (for the audit log)").fill("forgot it");
  await row.getByRole("button", { name: `Reset password of ${email}` }).click();
  await expect(page.getByTestId("user-notice")).toContainText("has a new password");
  const secondPassword = (await page.getByTestId("new-password").textContent())!.trim();
  expect(secondPassword).not.toBe(firstPassword);

  await row.getByRole("button", { name: `Disable of ${email}…` }).click();
  const disable = row.getByRole("button", { name: `Disable of ${email}`, exact: true });
  await expect(disable).toBeDisabled();
  await row.getByLabel("Reason (for the audit log)").fill("left the team");
  await disable.click();
  await expect(page.getByTestId("user-notice")).toContainText(`${email} is disabled`);
  await expect(row).toContainText("disabled");
  await page.screenshot({ path: "test-results/users-page.png", fullPage: true });
  await expectSignInRefused(browser, email, secondPassword);

  const audit = await e2eSql<{ action: string; reason: string | null }>("select action, reason from audit_log where target = $1 order by id", [`user:${email}`]);
  expect(audit).toEqual([
    { action: "user.create", reason: null },
    { action: "user.role_change", reason: "joins on-call" },
    { action: "user.password_reset", reason: "forgot it" },
    { action: "user.disable", reason: "left the team" },
  ]);
});

test("the users page is for admins: a viewer is told so and sees nobody", async ({ browser }) => {
  const context = await browser.newContext({ storageState: storageStateOf("viewer") });
  const page = await context.newPage();
  await page.goto("/users");
  await expect(page.getByText("Only admins can see and manage users.")).toBeVisible();
  await expect(page.getByTestId("user-row")).toHaveCount(0);
  await context.close();
});

test("disabling a user says which API tokens they created still work, and revokes them only when asked", async ({ page }) => {
  const email = `${uniqueId("e2e-token-owner")}@e2e.weir.test`;
  await page.goto("/users");
  const form = page.getByRole("form", { name: "Create user" });
  await form.getByLabel("Email").fill(email);
  await form.getByLabel("Role").selectOption("admin");
  await form.getByRole("button", { name: "Create user" }).click();
  await expect(page.getByTestId("new-password")).toBeVisible();
  // Two tokens this user made (as their own sign-in would), and one revoked long ago that does not count.
  const tokenId = (n: string) => `${uniqueId("tok")}-${n}`;
  const ids = [tokenId("a"), tokenId("b"), tokenId("old")];
  for (const [i, id] of ids.entries()) {
    await e2eSql("insert into api_tokens (id, name, role, token_hash, prefix, created_by, revoked_at) values ($1, $2, 'service', $3, 'weir_e2e', $4, $5)", [
      id,
      `payments-${i}`,
      `hash-${id}`,
      email,
      i === 2 ? new Date(Date.now() - 86_400_000) : null,
    ]);
  }
  await page.reload();
  const row = page.locator(`[data-testid="user-row"][data-email="${email}"]`);
  await row.getByRole("button", { name: `Disable of ${email}…` }).click();
  const tokens = row.getByTestId("user-tokens");
  await expect(tokens).toContainText(`${email} created 2 live API tokens. Disabling them does not stop them`);
  await tokens.getByLabel("Revoke all 2 too").check();
  await row.getByLabel("Reason (for the audit log)").fill("left the company");
  await row.getByRole("button", { name: `Disable of ${email}`, exact: true }).click();
  await expect(page.getByTestId("user-notice")).toContainText(`${email} is disabled; their sessions have ended. 2 API tokens they created are revoked.`);
  const revoked = await e2eSql<{ id: string; revoked: boolean }>("select id, revoked_at is not null as revoked from api_tokens where created_by = $1 order by id", [email]);
  expect(revoked.every((t) => t.revoked)).toBe(true);
  expect(revoked).toHaveLength(3);
});
