import { expect, test, type Browser } from "@playwright/test";
import { uniqueId } from "./support/api";
import { e2eSql } from "./support/sql";

const signedOut = { cookies: [], origins: [] };

/** A console user of this spec's own, so that changing its password leaves the shared ones alone. */
async function newUser(request: import("@playwright/test").APIRequestContext) {
  const user = { email: `${uniqueId("e2e-account")}@e2e.weir.test`, password: "first password, long enough", role: "viewer" };
  const response = await request.post("/api/v1/users", { data: user });
  if (!response.ok()) throw new Error(`create user: ${response.status()} ${await response.text()}`);
  return user;
}

async function signIn(browser: Browser, email: string, password: string) {
  const context = await browser.newContext({ storageState: signedOut });
  const page = await context.newPage();
  await page.goto("/");
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill(password);
  await page.getByRole("button", { name: "Sign in" }).click();
  return { context, page };
}

test("changes one's own password on the Account page: audited, other sessions ended, this one kept", async ({ browser, request }) => {
  const user = await newUser(request);
  const here = await signIn(browser, user.email, user.password);
  await expect(here.page.getByTestId("session-bar")).toContainText(user.email);
  const elsewhere = await signIn(browser, user.email, user.password);
  await expect(elsewhere.page.getByTestId("session-bar")).toContainText(user.email);

  await here.page.getByTestId("session-bar").getByRole("link", { name: "Account" }).click();
  await expect(here.page).toHaveURL(/\/account$/);
  await expect(here.page.getByRole("heading", { level: 1, name: "Account" })).toBeVisible();
  const form = here.page.getByRole("form", { name: "Change password" });
  const newPassword = "second password, long enough";

  // A wrong current password is named on its field, and nothing changes.
  await form.getByLabel("Current password").fill("not the password at all");
  await form.getByLabel("New password (12 characters or more)").fill(newPassword);
  await form.getByLabel("New password again").fill(newPassword);
  await form.getByRole("button", { name: "Change password" }).click();
  await expect(form.getByText("the current password is wrong")).toBeVisible();

  await form.getByLabel("Current password").fill(user.password);
  await form.getByLabel("New password (12 characters or more)").fill(newPassword);
  await form.getByLabel("New password again").fill(newPassword);
  await form.getByRole("button", { name: "Change password" }).click();
  await expect(here.page.getByTestId("password-changed")).toBeVisible();
  await here.page.screenshot({ path: "test-results/account-password-changed.png", fullPage: true });

  // This browser carries on with its new session; the other one is signed out.
  await here.page.reload();
  await expect(here.page.getByTestId("session-bar")).toContainText(user.email);
  await elsewhere.page.goto("/services");
  await expect(elsewhere.page).toHaveURL(/\/sign-in/);

  const [audit] = await e2eSql<{ n: number }>("select count(*)::int as n from audit_log where action = 'auth.password_change' and actor = $1", [user.email]);
  expect(audit!.n).toBe(1);
  const wrong = await e2eSql<{ n: number }>("select count(*)::int as n from security_events where kind = 'password_check_failed' and account = $1", [user.email]);
  expect(wrong[0]!.n).toBe(1);

  const again = await signIn(browser, user.email, newPassword);
  await expect(again.page.getByTestId("session-bar")).toContainText(user.email);
  for (const open of [here, elsewhere, again]) await open.context.close();
});
