import AxeBuilder from "@axe-core/playwright";
import { expect, test, type Page } from "@playwright/test";
import { checkAll, registerService, uniqueId } from "./support/api";
import { e2eSql } from "./support/sql";
import { E2E_USERS, storageStateOf } from "./support/users";

async function expectNoSeriousViolations(page: Page) {
  const results = await new AxeBuilder({ page }).withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "best-practice"]).analyze();
  const serious = results.violations.filter((v) => v.impact === "serious" || v.impact === "critical");
  expect(serious.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(" ")).join(" | ")}`)).toEqual([]);
}

const order = { order: { id: 7, total: 10 }, customer: { id: "c-1", name: "Ada" }, meta: { sentAt: "2026-01-01T00:00:00Z" } };

test("an admin previews new included paths, confirms, and the service page shows the new hash settings version", async ({ page, request }) => {
  const serviceId = uniqueId("e2e-settings");
  await registerService(request, serviceId, { historyDepth: 2, ignoredPaths: ["/meta/sentAt"] });
  await checkAll(request, [{ serviceId, messageId: "order-1", payload: order }]);

  await page.goto(`/services/${serviceId}`);
  await expect(page.locator(".page-header")).toContainText("hash settings v1");
  await page.getByRole("link", { name: "Settings…" }).click();
  await expect(page).toHaveURL(new RegExp(`/services/${serviceId}/settings$`));
  await expectNoSeriousViolations(page);

  // Listed twice and out of order: the verb stores each once, sorted.
  await page.getByLabel("Included paths").fill("/order\n/customer/id\n/order");
  await page.getByRole("button", { name: "Preview change" }).click();
  const preview = page.getByTestId("settings-preview");
  await expect(preview.getByTestId("hash-version-effect")).toContainText("A new hash settings version: v1 → v2.");
  await expect(preview).toContainText("Stored keys keep being compared under the settings they were made with");
  await expect(preview).toContainText("Included paths: none → /customer/id, /order");
  await expect(preview.getByTestId("hashed-before")).toContainText("Ada");
  await expect(preview.getByTestId("hashed-after")).toContainText("c-1");
  await expect(preview.getByTestId("hashed-after")).not.toContainText("Ada");
  await expectNoSeriousViolations(page);
  await page.screenshot({ path: "test-results/service-settings-preview.png", fullPage: true });

  // Typing after the preview withdraws the save until the new input is previewed.
  await page.getByLabel("Display name").fill("Orders projection");
  await expect(page.getByRole("button", { name: /^Save/ })).toHaveCount(0);
  await page.getByRole("button", { name: "Preview change" }).click();
  await expect(preview).toContainText("Display name:");
  await page.getByRole("button", { name: "Save and start hash settings v2" }).click();
  await expect(page.getByTestId("settings-saved")).toContainText("Saved: hash settings v2 (a new version)");

  // The same lists in another order are the same settings: nothing to save.
  await page.getByLabel("Included paths").fill("/order\n/customer/id");
  await page.getByRole("button", { name: "Preview change" }).click();
  await expect(preview.getByTestId("hash-version-effect")).toContainText("The same hash settings version (v2)");
  await expect(page.getByRole("button", { name: "Save settings" })).toBeDisabled();

  await page.getByRole("link", { name: "keys", exact: true }).click();
  const header = page.locator(".page-header");
  await expect(header).toContainText("Orders projection");
  await expect(header).toContainText("hashes only /customer/id, /order");
  await expect(header).toContainText("hash settings v2");
});

test("a bad pointer or depth is refused in its field and stays as typed", async ({ page, request }) => {
  const serviceId = uniqueId("e2e-settings-bad");
  await registerService(request, serviceId, { ignoredPaths: ["/meta/sentAt"] });
  await page.goto(`/services/${serviceId}/settings`);
  // The form is typed into once React holds it: typed into the server's HTML first, the hydrating
  // controlled field could end up with its saved value appended.
  await page.waitForLoadState("networkidle");

  const ignored = page.getByLabel("Ignored paths");
  await ignored.fill("/meta/sentAt\nmeta/bad~2");
  await page.getByLabel("History depth").fill("101");
  await page.getByRole("button", { name: "Preview change" }).click();
  await expect(ignored).toHaveAttribute("aria-invalid", "true");
  await expect(ignored).toHaveValue("/meta/sentAt\nmeta/bad~2");
  // The error is the field's own description: a screen reader says it with the field.
  await expect(ignored).toHaveAccessibleDescription(/"meta\/bad~2" must be a JSON pointer such as \/meta\/sentAt/);
  await expect(page.getByLabel("History depth")).toHaveAttribute("aria-invalid", "true");
  await expect(page.getByLabel("History depth")).toHaveAccessibleDescription(/<=100/);
  await expect(page.getByLabel("History depth")).toHaveValue("101");
  await expect(page.getByLabel("Included paths")).not.toHaveAttribute("aria-invalid", "true");
  await expect(page.getByTestId("settings-preview")).toHaveCount(0);
  await expectNoSeriousViolations(page);
  await page.screenshot({ path: "test-results/service-settings-invalid.png", fullPage: true });

  // Fixed, the same form previews.
  await ignored.fill("/meta/sentAt\n/meta/bad~1");
  await page.getByLabel("History depth").fill("3");
  await page.getByRole("button", { name: "Preview change" }).click();
  await expect(page.getByTestId("settings-preview")).toContainText("Ignored paths: /meta/sentAt → /meta/bad~1, /meta/sentAt");
  await expect(ignored).not.toHaveAttribute("aria-invalid", "true");
});

test("a save that needs a fresh sign-in keeps what was typed across the sign-in", async ({ browser, request }) => {
  const serviceId = uniqueId("e2e-settings-reauth");
  await registerService(request, serviceId);
  const context = await browser.newContext({ storageState: { cookies: [], origins: [] } });
  const page = await context.newPage();
  const signIn = async () => {
    await expect(page).toHaveURL(/\/sign-in\?/);
    if (await page.getByLabel("Email").isEditable()) await page.getByLabel("Email").fill(E2E_USERS.admin.email);
    await page.getByLabel("Password").fill(E2E_USERS.admin.password);
    await page.getByRole("button", { name: "Sign in" }).click();
    await expect(page).toHaveURL(new RegExp(`/services/${serviceId}/settings$`));
  };
  await page.goto(`/services/${serviceId}/settings`);
  await signIn();
  // This browser's sign-in, made an hour old: saving now asks for the password again.
  await e2eSql(
    `update auth_sessions set created_at = created_at - interval '1 hour'
     where id = (select s.id from auth_sessions s join auth_users u on u.id = s.user_id where u.email = $1 order by s.created_at desc limit 1)`,
    [E2E_USERS.admin.email],
  );
  await page.getByLabel("Included paths").fill("/order");
  await page.getByLabel("History depth").fill("4");
  await page.getByRole("button", { name: "Preview change" }).click();
  await page.getByRole("button", { name: "Save and start hash settings v2" }).click();
  await expect(page).toHaveURL(/\/sign-in\?reauth=1&next=/);
  await signIn();
  await expect(page.getByText("Restored what you typed before signing in again.")).toBeVisible();
  await expect(page.getByLabel("Included paths")).toHaveValue("/order");
  await expect(page.getByLabel("History depth")).toHaveValue("4");
  await page.getByRole("button", { name: "Preview change" }).click();
  await page.getByRole("button", { name: "Save and start hash settings v2" }).click();
  await expect(page.getByTestId("settings-saved")).toContainText("Saved: hash settings v2");
  expect(await (await request.get(`/api/v1/services/${serviceId}`)).json()).toMatchObject({ includedPaths: ["/order"], historyDepth: 4 });
  // Restored once: coming back later shows the saved settings, with no draft.
  await page.reload();
  await expect(page.getByText("Restored what you typed")).toHaveCount(0);
  await context.close();
});

for (const [article, role] of [["a", "viewer"], ["an", "operator"]] as const) {
  test(`${article} ${role} sees no settings link, the settings page refuses, and so does the save action`, async ({ page, browser, request, baseURL }) => {
    const serviceId = uniqueId(`e2e-settings-${role}`);
    await registerService(request, serviceId, { historyDepth: 1 });

    // The admin's save, kept to be replayed by the other role.
    await page.goto(`/services/${serviceId}/settings`);
    await page.getByLabel("Included paths").fill("/order");
    await page.getByRole("button", { name: "Preview change" }).click();
    const sent = page.waitForRequest((r) => r.method() === "POST" && r.headers()["next-action"] !== undefined);
    await page.getByRole("button", { name: "Save and start hash settings v2" }).click();
    const action = await sent;
    await expect(page.getByTestId("settings-saved")).toContainText("hash settings v2");

    const context = await browser.newContext({ storageState: storageStateOf(role) });
    const other = await context.newPage();
    await other.goto(`/services/${serviceId}`);
    await expect(other.locator(".page-header")).toContainText("hash settings v2");
    await expect(other.getByRole("link", { name: "Settings…" })).toHaveCount(0);
    await other.goto(`/services/${serviceId}/settings`);
    await expect(other.getByTestId("settings-refused")).toContainText("needs the admin role");
    await expect(other.getByRole("button", { name: "Preview change" })).toHaveCount(0);
    await expectNoSeriousViolations(other);

    const replay = await other.request.post(action.url(), {
      headers: { "next-action": action.headers()["next-action"]!, "content-type": action.headers()["content-type"]!, accept: "text/x-component", origin: baseURL! },
      data: action.postData()!.replace("/order", "/stolen"),
    });
    expect(replay.status()).toBe(200);
    const refused = await replay.text();
    expect(refused).toContain('"code":"forbidden"');
    expect(refused).not.toContain('"ok":true');
    const service = await (await request.get(`/api/v1/services/${serviceId}`)).json();
    expect(service).toMatchObject({ includedPaths: ["/order"], hashVersion: 2 });
    await context.close();
  });
}
