import { expect, test } from "@playwright/test";

const signedOut = { cookies: [], origins: [] };

test("a console URL that is not valid text answers 400 naming the parameter, never a 500", async ({ page }) => {
  for (const [path, field] of [
    ["/find?q=%00", "q"],
    ["/groups/g?claim=%00", "claim"],
    ["/services/a%00b", "path"],
    ["/services/%FF/key", "path"],
  ]) {
    const response = await page.request.get(path!);
    expect(response.status(), path).toBe(400);
    expect((await response.json()).error, path).toMatchObject({ code: "invalid_request", field });
    expect((await page.request.head(path!)).status(), `HEAD ${path}`).toBe(400);
  }
  // Ordinary text still works; Next itself turns malformed UTF-8 in a query into U+FFFD, which is text.
  expect((await page.request.get("/find?q=%E0%A4")).status()).toBe(200);
  const response = await page.goto("/find?q=caf%C3%A9");
  expect(response?.status()).toBe(200);
});

test("HEAD and non-HTML requests for console pages never answer 500", async ({ playwright, baseURL, page }) => {
  // Anonymous: sent to sign in, like a GET.
  const anonymous = await playwright.request.newContext({ baseURL, storageState: signedOut });
  for (const method of ["head", "get"] as const) {
    const response = await anonymous[method]("/services", { headers: { accept: "*/*" }, maxRedirects: 0 });
    expect(response.status(), method).toBe(307);
    expect(response.headers().location, method).toMatch(/\/sign-in\?next=%2Fservices$/);
  }
  await anonymous.dispose();

  // A bogus session cookie asking for JSON: the proxy lets it through (a cookie exists), the page sends it to sign in.
  const bogus = await playwright.request.newContext({ baseURL, storageState: signedOut, extraHTTPHeaders: { cookie: "weir.session_token=bogus.bogus" } });
  for (const method of ["head", "get"] as const) {
    for (const accept of ["application/json", "*/*"]) {
      const response = await bogus[method]("/services", { headers: { accept }, maxRedirects: 0 });
      expect(response.status(), `${method} ${accept}`).toBeLessThan(500);
      expect(response.headers().location ?? "", `${method} ${accept}`).toMatch(/\/sign-in/);
    }
  }
  await bogus.dispose();

  // Signed in: HEAD gets the page's status without a body.
  expect((await page.request.head("/services")).status()).toBe(200);
});
