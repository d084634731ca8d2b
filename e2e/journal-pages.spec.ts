import { readFile } from "node:fs/promises";
import { expect, test, type Page } from "@playwright/test";
import { checkAll, registerService, uniqueId } from "./support/api";
import { e2eSql } from "./support/sql";

const minuteText = (ms: number) => new Date(ms).toISOString().slice(0, 16);

async function download(page: Page, testId: string): Promise<string> {
  const started = page.waitForEvent("download");
  await page.getByTestId(testId).click();
  return readFile(await (await started).path(), "utf8");
}

test("incident view, sources and the duplicates blocked report of a service's duplicates, with their exports", async ({ page, request }) => {
  const serviceId = uniqueId("e2e-journal");
  await registerService(request, serviceId);
  const from = Math.floor(Date.now() / 60_000) * 60_000 - 5 * 60_000;
  const items = ["A-1", "A-1", "A-1", "A-2", "A-2", "A-3"].map((messageId) => ({ serviceId, messageId, payload: { id: messageId } }));
  expect((await checkAll(request, items)).map((r) => r.decision)).toEqual(["new", "duplicate", "duplicate", "new", "duplicate", "new"]);

  // The incident view, filled in as on-call would: a range in UTC and the service.
  await expect(async () => {
    await page.goto("/incidents");
    await page.getByLabel("From (UTC)").fill(minuteText(from));
    await page.getByLabel("To (UTC)").fill(minuteText(from + 10 * 60_000));
    await page.getByLabel("Subject kind").selectOption("service");
    await page.getByLabel("Subject id (optional)").fill(serviceId);
    await page.getByRole("button", { name: "Show" }).click();
    await expect(page.getByTestId("incident-range")).toContainText("6 entries kept", { timeout: 1_000 });
  }).toPass({ timeout: 20_000 });
  await expect(page).toHaveURL(new RegExp(`/incidents\\?from=.*&kind=service&subject=${serviceId}`));
  const counts = page.getByTestId("decision-counts");
  await expect(counts.getByRole("row").filter({ hasText: "duplicate" })).toContainText("3");
  await expect(counts.getByRole("row").filter({ hasText: "new" })).toContainText("3");
  // The most duplicated keys: A-1 turned away twice, A-2 once; A-3, answered once, is no part of it.
  const keys = page.getByTestId("top-keys").getByRole("row");
  await expect(keys).toHaveCount(3);
  await expect(keys.nth(1)).toContainText("A-1");
  await expect(keys.nth(1).locator("td.num")).toHaveText("2");
  await expect(keys.nth(2).locator("td.num")).toHaveText("1");
  await expect(keys.nth(2)).toContainText("A-2");
  await expect(page.getByTestId("top-callers")).toContainText("e2e specs");
  await page.screenshot({ path: "test-results/journal-incident-view.png", fullPage: true });

  const csv = (await download(page, "export-journal-csv")).trimEnd().split("\r\n");
  expect(csv[0]).toContain(`"at","mode","subject","key","decision"`);
  expect(csv.slice(1).map((line) => line.split(",")[3]).sort()).toEqual(['"A-1"', '"A-1"', '"A-1"', '"A-2"', '"A-2"', '"A-3"']);
  // Oldest first: each key's first answer is its "new".
  const ndjson = (await download(page, "export-journal-ndjson")).trimEnd().split("\n").map((line) => JSON.parse(line));
  const answersOf = (key: string) => ndjson.filter((e) => e.key === key).map((e) => e.decision);
  expect([answersOf("A-1"), answersOf("A-2"), answersOf("A-3")]).toEqual([["new", "duplicate", "duplicate"], ["new", "duplicate"], ["new"]]);
  expect(ndjson.every((e) => e.subject === serviceId && e.caller.startsWith("token:"))).toBe(true);

  // Sources: the callers of this service's duplicates against the period before.
  await page.getByRole("navigation", { name: "Console" }).getByRole("link", { name: "Sources" }).click();
  await page.getByLabel("One of them (optional)").fill(serviceId);
  await page.getByRole("button", { name: "Show" }).click();
  // The period links are the shown page's: wait for the one that has the subject.
  await expect(page).toHaveURL(new RegExp(`kind=service&subject=${serviceId}`));
  const sources = page.getByTestId("sources").getByRole("row").filter({ hasText: "e2e specs" });
  await expect(sources).toContainText("3");
  await expect(sources).toContainText("new");
  await page.getByRole("navigation", { name: "Period" }).getByRole("link", { name: "Last hour" }).click();
  await expect(page).toHaveURL(new RegExp(`period=1h&kind=service&subject=${serviceId}`));
  await expect(sources).toContainText("3");

  // The duplicates blocked report, from the stats rollup (flushed every 2 s). With more than ten
  // services this week, the week lists its ten busiest and a link to all of them.
  const others = Array.from({ length: 10 }, (_, i) => uniqueId(`e2e-report-${i}`));
  for (const other of others) await registerService(request, other);
  await checkAll(request, others.map((other) => ({ serviceId: other, messageId: "R-1", payload: {} })));
  const report = page.getByTestId("blocked-report");
  await expect(async () => {
    await page.goto("/reports");
    await expect(report.getByTestId("report-rest").first()).toContainText("more services", { timeout: 1_000 });
  }).toPass({ timeout: 20_000 });
  await report.getByTestId("report-rest").first().getByRole("link").click();
  await expect(page).toHaveURL(/\/reports\?period=week&kind=service&start=\d{4}-\d{2}-\d{2}$/);
  await expect(async () => {
    await page.reload();
    await expect(report.getByRole("row").filter({ hasText: serviceId })).toContainText("50.0 %", { timeout: 1_000 });
  }).toPass({ timeout: 20_000 });
  await expect(report.locator("tbody").first().getByTestId("report-rest")).toHaveCount(0);
  await page.getByRole("navigation", { name: "Period" }).getByRole("link", { name: "Per month" }).click();
  await expect(page).toHaveURL(/period=month&kind=service$/);
  await page.goto(`/reports?period=month&kind=service&start=${new Date().toISOString().slice(0, 8)}01`);
  await expect(report.getByRole("row").filter({ hasText: serviceId })).toContainText("3");
  const reportCsv = await download(page, "export-report-csv");
  expect(reportCsv.split("\r\n")[0]).toBe(`"period_start","period","partial","service","checks","duplicates_blocked","duplicate_share"`);
  expect(reportCsv).toMatch(new RegExp(`"${serviceId}","6","3","0\\.5000"`));
});

test("a gap in the journal is named on the page: which minute of which subject, how many entries", async ({ page, request }) => {
  const serviceId = uniqueId("e2e-gap");
  await registerService(request, serviceId);
  const minute = Math.floor(Date.now() / 60_000) * 60_000 - 2 * 60_000;
  // What a node writes when its journal buffer was full (lib/journal/buffer.ts): the drops per subject and minute.
  await e2eSql(`insert into journal_gaps (subject_kind, subject, minute, dropped) values ('service', $1, $2, 17)`, [serviceId, new Date(minute).toISOString()]);
  const text = `Service ${serviceId}, ${minuteText(minute).replace("T", " ")} UTC: 17 entries lost`;

  await page.goto(`/decisions?kind=service&subject=${serviceId}&from=${minuteText(minute)}&to=${minuteText(minute + 60_000)}`);
  await expect(page.getByTestId("journal-gaps")).toContainText(text);
  await expect(page.getByTestId("journal-gaps")).toContainText("Every decision was answered");
  await page.goto(`/incidents?from=${minuteText(minute - 60_000)}&to=${minuteText(minute + 120_000)}`);
  await expect(page.getByTestId("journal-gaps")).toContainText(text);
  // A range that does not hold the minute names no gap.
  await page.goto(`/decisions?kind=service&subject=${serviceId}&from=${minuteText(minute + 60_000)}&to=${minuteText(minute + 120_000)}`);
  await expect(page.getByTestId("journal-gaps")).toHaveCount(0);
});

test("the journal level is set per subject, audited, and off keeps no further answer", async ({ page, request }) => {
  const serviceId = uniqueId("e2e-level");
  await registerService(request, serviceId);
  await checkAll(request, [{ serviceId, messageId: "L-1", payload: 1 }]);

  await page.goto(`/services/${serviceId}/settings`);
  const level = page.getByTestId("journal-level");
  await expect(level.getByTestId("journal-level-now")).toHaveText("Every answer");
  await expect(level.getByRole("button", { name: "Save journal level" })).toHaveCount(0);
  await level.getByLabel("Off: nothing kept").check();
  await level.getByLabel("Reason (for the audit log)").fill("noisy replay, journal not needed");
  await level.getByRole("button", { name: "Save journal level" }).click();
  await expect(level.getByTestId("journal-level-saved")).toHaveText("Saved: off: nothing kept.");
  await expect(level.getByTestId("journal-level-now")).toHaveText("Off: nothing kept");

  // The key's first answer was kept; the ones after the switch are not.
  await checkAll(request, [{ serviceId, messageId: "L-1", payload: 1 }, { serviceId, messageId: "L-1", payload: 2 }]);
  await page.waitForTimeout(3_000);
  await page.goto(`/services/${serviceId}/key?id=L-1`);
  await expect(page.getByTestId("key-timeline").locator("tbody tr")).toHaveCount(1);
  await expect(page.getByTestId("journal-level-note")).toContainText("off: nothing kept");

  await page.goto(`/audit?action=journal.level&target=service:${serviceId}`);
  await expect(page.getByRole("row").filter({ hasText: "noisy replay, journal not needed" })).toBeVisible();

  // The same switch on a consumer group's page.
  const group = uniqueId("e2e-level-group");
  await request.post("/api/v1/claim", { data: { consumerGroup: group, messageId: "m-1" } });
  await page.goto(`/groups/${group}`);
  const groupLevel = page.getByTestId("journal-level");
  await groupLevel.getByLabel("Changes and duplicates only (no first acceptances)").check();
  await groupLevel.getByLabel("Reason (for the audit log)").fill("first claims are not needed");
  await groupLevel.getByRole("button", { name: "Save journal level" }).click();
  await expect(groupLevel.getByTestId("journal-level-now")).toHaveText("Changes and duplicates only (no first acceptances)");
});
