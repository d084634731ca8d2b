import { requireConsoleActor } from "@/lib/auth/console-actor";
import { failureResponse } from "@/lib/console/route-failure";
import { consoleDb } from "@/lib/console/store";
import { exportFormatSchema, journalRangeFilterSchema } from "@/lib/validation/console-journal";
import { journalExportStream } from "@/lib/views/journal-export";
import { MODE_OF_KIND } from "@/lib/views/journal-format";

export const dynamic = "force-dynamic";

const TYPES = { csv: "text/csv; charset=utf-8", ndjson: "application/x-ndjson; charset=utf-8" };

/**
 * A range's journal entries as a CSV or NDJSON download (CSV cells that look like formulas are
 * neutralised). Parameters are validated and the first page read before the response starts, so bad
 * input is a 400 naming the field and a failing store a 503, never a cut download.
 */
export async function GET(request: Request) {
  try {
    await requireConsoleActor("read");
    const params = Object.fromEntries(new URL(request.url).searchParams);
    const filter = journalRangeFilterSchema.parse(params);
    const { format } = exportFormatSchema.parse(params);
    const query = {
      fromUs: filter.from.getTime() * 1000,
      toUs: filter.to.getTime() * 1000,
      mode: filter.kind ? MODE_OF_KIND[filter.kind] : undefined,
      subject: filter.kind ? filter.subject : undefined,
    };
    const stream = await journalExportStream(await consoleDb(), query, format);
    const stamp = filter.from.toISOString().slice(0, 16).replace(/[:T]/g, "-");
    return new Response(stream, {
      headers: {
        "content-type": TYPES[format],
        "content-disposition": `attachment; filename="weir-journal-${stamp}.${format}"`,
        "cache-control": "no-store",
      },
    });
  } catch (err) {
    return failureResponse(err);
  }
}
