import { z } from "zod";
import { requireConsoleActor } from "@/lib/auth/console-actor";
import { auditCsvStream } from "@/lib/audit/export";
import { toAuditQuery } from "@/lib/audit/list";
import { toActionFailure } from "@/lib/console/action-result";
import { consoleDb } from "@/lib/console/store";
import { auditFilterSchema } from "@/lib/validation/console-audit";

export const dynamic = "force-dynamic";

const STATUS: Record<string, number> = { unauthorized: 401, forbidden: 403, invalid_request: 400, store_unavailable: 503 };

/** The filtered audit log as a CSV download (cells that look like formulas are neutralised). */
export async function GET(request: Request) {
  try {
    await requireConsoleActor("viewer");
    const params = Object.fromEntries(new URL(request.url).searchParams);
    const parsed = auditFilterSchema.safeParse(params);
    if (!parsed.success) {
      return Response.json({ code: "invalid_request", fieldErrors: z.flattenError(parsed.error).fieldErrors }, { status: 400 });
    }
    const db = await consoleDb();
    const stamp = new Date().toISOString().slice(0, 19).replace(/[:T]/g, "-");
    return new Response(auditCsvStream(db, toAuditQuery(parsed.data)), {
      headers: {
        "content-type": "text/csv; charset=utf-8",
        "content-disposition": `attachment; filename="weir-audit-${stamp}.csv"`,
        "cache-control": "no-store",
      },
    });
  } catch (err) {
    const failure = toActionFailure(err);
    return Response.json(failure, { status: STATUS[failure.code] ?? 500 });
  }
}
