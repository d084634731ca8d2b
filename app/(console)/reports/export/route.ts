import { requireConsoleActor } from "@/lib/auth/console-actor";
import { failureResponse } from "@/lib/console/route-failure";
import { consoleDb } from "@/lib/console/store";
import { blockedReportQuerySchema } from "@/lib/validation/console-journal";
import { blockedReportCsv, loadBlockedReport } from "@/lib/views/journal-duplicates-blocked";

export const dynamic = "force-dynamic";

/** The "duplicates blocked" report as CSV: one row per period and subject, from the stats rollup. */
export async function GET(request: Request) {
  try {
    await requireConsoleActor("read");
    const q = blockedReportQuerySchema.parse(Object.fromEntries(new URL(request.url).searchParams));
    const report = await loadBlockedReport(await consoleDb(), q);
    const stamp = new Date().toISOString().slice(0, 10);
    return new Response(blockedReportCsv(report), {
      headers: {
        "content-type": "text/csv; charset=utf-8",
        "content-disposition": `attachment; filename="weir-duplicates-blocked-${q.kind}-per-${q.period}-${stamp}.csv"`,
        "cache-control": "no-store",
      },
    });
  } catch (err) {
    return failureResponse(err);
  }
}
