import { expect, test } from "@playwright/test";
import { uniqueId } from "./support/api";
import { e2eSql } from "./support/sql";

test("a token's expiry is chosen in the form and shown in the list; once past it, the API answers 401 token expired and the list marks it", async ({ page, playwright, baseURL }) => {
  const name = uniqueId("e2e-expiry");
  const forever = uniqueId("e2e-forever");
  await page.goto("/tokens");
  const form = page.getByRole("form", { name: "Create token" });
  await form.getByLabel("Name").fill(name);
  await form.getByLabel("Role").selectOption("viewer");
  await form.getByLabel("Services").fill("*");
  await form.getByLabel("Expires").selectOption({ label: "in 30 days" });
  await form.getByRole("button", { name: "Create token" }).click();
  const secret = (await page.getByTestId("new-token").textContent())!.trim();
  expect(secret).toMatch(/^weir_/);
  const row = page.getByRole("row").filter({ hasText: name });
  await expect(row.getByTestId("token-expiry")).toContainText(/in (29|30) d/);
  await expect(row.getByTestId("token-expiry")).not.toContainText("expired");

  await form.getByLabel("Name").fill(forever);
  await form.getByLabel("Expires").selectOption({ label: "never" });
  await form.getByRole("button", { name: "Create token" }).click();
  await expect(page.getByRole("row").filter({ hasText: forever }).getByTestId("token-expiry")).toHaveText("never");

  // The token works, until its expiry is behind it (moved with SQL: nobody waits 30 days).
  const api = await playwright.request.newContext({ baseURL, extraHTTPHeaders: { authorization: `Bearer ${secret}` } });
  expect((await api.get("/api/v1/services")).status()).toBe(200);
  await e2eSql("update api_tokens set expires_at = now() - interval '2 days' where name = $1", [name]);
  // A node remembers a lookup for up to 10 s.
  await expect
    .poll(async () => {
      const answer = await api.get("/api/v1/services");
      return answer.status() === 401 ? ((await answer.json()) as { error: { code: string; reason: string } }).error : answer.status();
    }, { timeout: 20_000 })
    .toMatchObject({ code: "token_expired", reason: "token expired" });
  await api.dispose();

  await page.reload();
  const expiredCell = page.getByRole("row").filter({ hasText: name }).getByTestId("token-expiry");
  await expect(expiredCell).toContainText("expired");
  await expect(expiredCell).toContainText("2 d ago");
});
