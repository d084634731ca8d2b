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
