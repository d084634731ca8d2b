import { expect, test, type Page } from "@playwright/test";
import { registerService, uniqueId } from "./support/api";

// The browser is in Los Angeles: in January that is UTC-8 (PST).
test.use({ timezoneId: "America/Los_Angeles" });

const range = "from=2026-01-15T18:00&to=2026-01-15T19:00";

function hydrationErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on("console", (message) => {
    if (message.type() === "error" && /hydrat|did not match/i.test(message.text())) errors.push(message.text());
  });
  return errors;
}

test("times and time filters follow the UTC / local switch, which is kept", async ({ page, context }) => {
  await context.clearCookies({ name: "weir-tz" });
  const errors = hydrationErrors(page);
  const zones = page.getByRole("group", { name: "Time zone" });

  // UTC by default: shown and typed in UTC, the zone named.
  await page.goto(`/incidents?${range}`);
  await expect(zones.getByRole("button", { name: "UTC" })).toHaveAttribute("aria-pressed", "true");
  await expect(page.locator("main")).toContainText("2026-01-15 18:00:00 UTC to 2026-01-15 19:00:00 UTC");
  await expect(page.getByLabel("From (UTC)")).toHaveValue("2026-01-15T18:00");

  // Local: the same instants, eight hours earlier on the wall clock, named PST.
  await zones.getByRole("button", { name: /^Local/ }).click();
  await expect(zones.getByRole("button", { name: "Local (PST)" })).toHaveAttribute("aria-pressed", "true");
  await expect(page.locator("main")).toContainText("2026-01-15 10:00:00 PST to 2026-01-15 11:00:00 PST");
  await expect(page.getByLabel("From (PST)")).toHaveValue("2026-01-15T10:00");

  // Kept across loads, rendered so by the server (no hydration mismatch).
  const html = await (await page.request.get(`/incidents?${range}`)).text();
  expect(html).toContain("2026-01-15 10:00:00 PST");
  await page.reload();
  await expect(page.getByLabel("From (PST)")).toHaveValue("2026-01-15T10:00");

  // A filter typed in local time is read in the browser's zone and sent as the instant.
  await page.getByLabel("From (PST)").fill("2026-01-15T09:30");
  await page.getByRole("button", { name: "Show" }).click();
  await expect(page).toHaveURL(/from=2026-01-15T17%3A30Z/);
  await expect(page.locator("main")).toContainText("2026-01-15 09:30:00 PST to 2026-01-15 11:00:00 PST");

  // The audit log's filter and the reset form's prefilled range move the same way.
  await page.goto("/audit?from=2026-01-15T18:00Z");
  await expect(page.getByLabel("From (PST)")).toHaveValue("2026-01-15T10:00");
  await page.goto("/reset?kind=last_seen&subject=x&mode=filter&from=2026-01-15T18:00Z");
  await expect(page.getByLabel("last change from (PST)")).toHaveValue("2026-01-15T10:00");

  // The overview's charts and findings name the same zone (late November: PST).
  await page.goto("/");
  await expect(page.locator("main")).toContainText("Times in PST.");

  // Back to UTC.
  await page.goto(`/incidents?${range}`);
  await zones.getByRole("button", { name: "UTC" }).click();
  await expect(page.locator("main")).toContainText("2026-01-15 18:00:00 UTC");
  await expect(page.getByLabel("From (UTC)")).toHaveValue("2026-01-15T18:00");
  expect(errors).toEqual([]);
});

test("a reset filter typed in local time selects by the instant it names", async ({ page, context, request }) => {
  await context.addCookies([{ name: "weir-tz", value: "local:America%2FLos_Angeles", url: test.info().project.use.baseURL! }]);
  const serviceId = uniqueId("e2e-tz");
  await registerService(request, serviceId);
  await request.post("/api/v1/check", { data: { serviceId, messageId: "now-1", payload: { a: 1 } } });
  // The key changed a moment ago: "from" one hour ago local time finds it, "from" in an hour finds nothing.
  // The browser's own wall clock (Los Angeles), as a datetime-local input takes it.
  const wall = (shift: number) =>
    page.evaluate((ms) => {
      const at = Date.now() + ms;
      return new Date(at - new Date(at).getTimezoneOffset() * 60_000).toISOString().slice(0, 16);
    }, shift);
  await page.goto(`/reset?kind=last_seen&subject=${serviceId}&mode=filter`);
  const from = page.getByLabel(/^last change from \(P[SD]T\)$/);
  await from.fill(await wall(-3_600_000));
  await page.getByRole("button", { name: "Preview (dry run)" }).click();
  await expect(page.getByTestId("preview-count")).toHaveText("1");
  // Read as UTC, this wall time would be hours in the past and find the key.
  await from.fill(await wall(3_600_000));
  await page.getByRole("button", { name: "Preview (dry run)" }).click();
  await expect(page.getByTestId("preview-count")).toHaveText("0");
});
