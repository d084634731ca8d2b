import { expect, test as setup } from "@playwright/test";
import { E2E_USERS, storageStateOf, type E2eRole } from "./support/users";

// Signs each role in through the real sign-in page once; the other specs reuse the saved state.
for (const role of Object.keys(E2E_USERS) as E2eRole[]) {
  setup(`sign in as ${role}`, async ({ page }) => {
    const { email, password } = E2E_USERS[role];
    await page.goto("/");
    await expect(page).toHaveURL(/\/sign-in\?next=%2F$/);
    await page.getByLabel("Email").fill(email);
    await page.getByLabel("Password").fill(password);
    await page.getByRole("button", { name: "Sign in" }).click();
    await expect(page.getByTestId("session-bar")).toContainText(`${email} (${role})`);
    await page.context().storageState({ path: storageStateOf(role) });
  });
}
