import { requireConsoleCaller } from "@/lib/auth/console-actor";
import { auditCsvStream } from "@/lib/audit/export";
import { toAuditQuery } from "@/lib/audit/list";
import { failureResponse } from "@/lib/console/route-failure";
import { consoleDb } from "@/lib/console/store";
import { auditFilterSchema } from "@/lib/validation/console-audit";

export const dynamic = "force-dynamic";

/**
 * The filtered audit log as a CSV download (cells that look like formulas are
 * neutralised). Parameters are validated and the first rows read before the
 * response starts, so bad input is a 400 and a failing store a 503, never a cut download.
 */
export async function GET(request: Request) {
  try {
    await requireConsoleCaller("read");
    const filter = auditFilterSchema.parse(Object.fromEntries(new URL(request.url).searchParams));
    const stream = await auditCsvStream(await consoleDb(), toAuditQuery(filter));
    const stamp = new Date().toISOString().slice(0, 19).replace(/[:T]/g, "-");
    return new Response(stream, {
      headers: {
        "content-type": "text/csv; charset=utf-8",
        "content-disposition": `attachment; filename="weir-audit-${stamp}.csv"`,
        "cache-control": "no-store",
      },
    });
  } catch (err) {
    return failureResponse(err);
  }
}
