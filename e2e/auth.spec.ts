import { expect, test, type Browser } from "@playwright/test";
import { checkAll, registerService, uniqueId } from "./support/api";
import { E2E_USERS, storageStateOf, type E2eRole } from "./support/users";

const signedOut = { cookies: [], origins: [] };

async function signInFresh(browser: Browser, role: E2eRole, path = "/") {
  const context = await browser.newContext({ storageState: signedOut });
  const page = await context.newPage();
  await page.goto(path);
  await page.getByLabel("Email").fill(E2E_USERS[role].email);
  await page.getByLabel("Password").fill(E2E_USERS[role].password);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page.getByTestId("session-bar")).toContainText(E2E_USERS[role].email);
  return { context, page };
}

test.describe("sign-in", () => {
  test("sends a signed-out visitor to sign in, refuses a wrong password, then returns to the page asked for", async ({ browser }) => {
    const context = await browser.newContext({ storageState: signedOut });
    const page = await context.newPage();
    await page.goto("/tokens");
    await expect(page).toHaveURL(/\/sign-in\?next=%2Ftokens$/);
    await page.getByLabel("Email").fill(E2E_USERS.viewer.email);
    await page.getByLabel("Password").fill("not the password");
    await page.getByRole("button", { name: "Sign in" }).click();
    await expect(page.getByRole("alert").filter({ hasText: "wrong" })).toHaveText("wrong email or password");
    await page.getByLabel("Password").fill(E2E_USERS.viewer.password);
    await page.getByRole("button", { name: "Sign in" }).click();
    await expect(page).toHaveURL(/\/tokens$/);
    await expect(page.getByTestId("session-bar")).toContainText(`${E2E_USERS.viewer.email} (viewer)`);
    const session = (await context.cookies()).find((c) => c.name === "weir.session_token")!;
    expect(session).toMatchObject({ httpOnly: true, sameSite: "Lax", path: "/" });
    await page.screenshot({ path: "test-results/auth-signed-in.png", fullPage: true });
    await context.close();
  });

  test("signs out: the browser is signed out and the old cookie is dead on the server", async ({ browser, playwright, baseURL }) => {
    const { context, page } = await signInFresh(browser, "operator");
    const session = (await context.cookies()).find((c) => c.name === "weir.session_token")!;
    await page.getByRole("button", { name: "Sign out" }).click();
    await expect(page).toHaveURL(/\/sign-in$/);
    await page.goto("/");
    await expect(page).toHaveURL(/\/sign-in\?next=/);
    const replay = await playwright.request.newContext({ baseURL, extraHTTPHeaders: { cookie: `${session.name}=${session.value}` } });
    expect((await replay.get("/api/v1/services")).status()).toBe(401);
    await replay.dispose();
    await context.close();
  });
});

test.describe("roles", () => {
  test("a viewer sees no token controls and is refused when it calls the action directly", async ({ page, browser, request, baseURL }) => {
    // The admin creates a token; the browser's server action request is kept to be replayed.
    await page.goto("/tokens");
    const name = uniqueId("e2e-token");
    await page.getByLabel("Name").fill(name);
    await page.getByLabel("Services").fill("*");
    const sent = page.waitForRequest((r) => r.method() === "POST" && r.headers()["next-action"] !== undefined);
    await page.getByRole("button", { name: "Create token" }).click();
    const action = await sent;
    await expect(page.getByTestId("new-token")).toContainText("weir_");
    await expect(page.getByRole("row").filter({ hasText: name })).toBeVisible();

    const viewer = await browser.newContext({ storageState: storageStateOf("viewer") });
    const viewerPage = await viewer.newPage();
    await viewerPage.goto("/tokens");
    await expect(viewerPage.getByRole("row").filter({ hasText: name })).toBeVisible();
    await expect(viewerPage.getByRole("button", { name: "Create token" })).toHaveCount(0);
    await expect(viewerPage.getByRole("button", { name: /^Revoke/ })).toHaveCount(0);
    await viewerPage.screenshot({ path: "test-results/auth-viewer-tokens.png", fullPage: true });

    const stolen = `${name}-viewer`;
    const replay = await viewerPage.request.post(action.url(), {
      headers: {
        "next-action": action.headers()["next-action"]!,
        "content-type": action.headers()["content-type"]!,
        accept: "text/x-component",
        origin: baseURL!,
      },
      data: action.postData()!.replace(name, stolen),
    });
    expect(replay.status()).toBe(200);
    expect(await replay.text()).toContain('"code":"forbidden"');
    const tokens = (await (await request.get("/api/v1/tokens")).json()).tokens as { name: string }[];
    expect(tokens.map((t) => t.name)).toContain(name);
    expect(tokens.map((t) => t.name)).not.toContain(stolen);
    await viewer.close();
  });
});

test.describe("roles on the reset page", () => {
  test("a viewer sees no reset controls and is refused when it calls the reset action directly", async ({ page, browser, request, baseURL }) => {
    const serviceId = uniqueId("e2e-authz");
    await registerService(request, serviceId);
    await checkAll(request, [{ serviceId, messageId: "a", payload: { v: 1 } }]);

    await page.goto(`/reset?kind=last_seen&subject=${serviceId}&mode=key&messageId=a`);
    const sent = page.waitForRequest((r) => r.method() === "POST" && r.headers()["next-action"] !== undefined);
    await page.getByRole("button", { name: "Preview (dry run)" }).click();
    const action = await sent;
    await expect(page.getByRole("button", { name: /^Reset 1 rows?$/ })).toBeVisible(); // the admin's preview counted the key

    const viewer = await browser.newContext({ storageState: storageStateOf("viewer") });
    const viewerPage = await viewer.newPage();
    await viewerPage.goto(`/reset?kind=last_seen&subject=${serviceId}&mode=key&messageId=a`);
    await expect(viewerPage.getByText("Resetting needs the operator role")).toBeVisible();
    await expect(viewerPage.getByRole("button", { name: /Preview|Reset \d+ rows/ })).toHaveCount(0);
    await viewerPage.screenshot({ path: "test-results/auth-viewer-reset.png", fullPage: true });
    const replay = await viewerPage.request.post(action.url(), {
      headers: { "next-action": action.headers()["next-action"]!, "content-type": action.headers()["content-type"]!, accept: "text/x-component", origin: baseURL! },
      data: action.postData()!,
    });
    expect(replay.status()).toBe(200);
    const refused = await replay.text();
    expect(refused).toContain('"code":"forbidden"');
    expect(refused).not.toContain('"ok":true');
    await viewer.close();
  });
});

test.describe("cross-site requests and headers", () => {
  test("refuses writes whose Origin is missing, null or foreign, before any action runs", async ({ playwright, baseURL }) => {
    for (const origin of [undefined, "null", "https://evil.example"]) {
      const context = await playwright.request.newContext({ baseURL, storageState: storageStateOf("admin"), extraHTTPHeaders: origin ? { origin } : {} });
      const action = await context.post("/tokens", { headers: { "next-action": "0".repeat(42), "content-type": "text/plain;charset=UTF-8" }, data: "[]" });
      expect(action.status(), `server action, Origin ${origin}`).toBe(403);
      const signOut = await context.post("/api/auth/sign-out", { data: {} });
      expect(signOut.status(), `sign-out, Origin ${origin}`).toBe(403);
      const signIn = await context.post("/api/auth/sign-in/email", { data: E2E_USERS.admin });
      expect(signIn.status(), `sign-in, Origin ${origin}`).toBe(403);
      await context.dispose();
    }
    const same = await playwright.request.newContext({ baseURL, storageState: storageStateOf("admin"), extraHTTPHeaders: { origin: baseURL! } });
    const passed = await same.post("/tokens", { headers: { "next-action": "0".repeat(42), "content-type": "text/plain;charset=UTF-8" }, data: "[]" });
    expect(passed.status()).not.toBe(403); // past the fence; Next then refuses the unknown action itself
    await same.dispose();
  });

  test("console pages carry a nonce-based CSP and security headers, and their scripts still run", async ({ page }) => {
    const violations: string[] = [];
    page.on("console", (message) => {
      if (/Content Security Policy/i.test(message.text())) violations.push(message.text());
    });
    const response = await page.goto("/tokens");
    const headers = response!.headers();
    const csp = headers["content-security-policy"]!;
    expect(csp).toMatch(/script-src 'self' 'nonce-[A-Za-z0-9+/=]+' 'strict-dynamic'(;|$)/);
    expect(csp).not.toMatch(/script-src[^;]*unsafe-inline/);
    for (const directive of ["object-src 'none'", "base-uri 'none'", "frame-ancestors 'none'"]) expect(csp).toContain(directive);
    expect(headers["x-content-type-options"]).toBe("nosniff");
    expect(headers["x-frame-options"]).toBe("DENY");
    const nonce = /'nonce-([^']+)'/.exec(csp)![1];
    // Every script the server wrote carries this response's nonce; chunks loaded later pass through 'strict-dynamic'.
    const tags = (await response!.text()).match(/<script\b[^>]*>/g) ?? [];
    expect(tags.length).toBeGreaterThan(0);
    for (const tag of tags) expect(tag).toContain(`nonce="${nonce}"`);
    // Hydrated: the client form reacts (React attached its handlers despite the strict policy).
    await page.getByLabel("Name").fill("x");
    await expect(page.getByRole("button", { name: "Create token" })).toBeEnabled();
    expect(violations).toEqual([]);
  });
});
