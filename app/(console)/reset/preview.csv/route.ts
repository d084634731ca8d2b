import { assertSameOrigin, requireConsoleCaller } from "@/lib/auth/console-actor";
import { failureResponse } from "@/lib/console/route-failure";
import { consoleDb } from "@/lib/console/store";
import { resetSelectionCsv } from "@/lib/reset/preview-csv";

export const dynamic = "force-dynamic";

const FIELDS = ["kind", "subject", "mode", "messageId", "messageIds", "prefix", "from", "to"] as const;

/**
 * A reset preview's whole selection as a CSV download. A POST of the reset form's fields (a list
 * of ids does not fit in a URL), so it must come from the console's own origin.
 */
export async function POST(request: Request) {
  try {
    await assertSameOrigin(request.headers);
    const actor = await requireConsoleCaller("operate");
    const form = await request.formData();
    const input = Object.fromEntries(FIELDS.map((name) => [name, form.get(name) ?? undefined]));
    const stream = await resetSelectionCsv({ db: await consoleDb(), actor, input: input as never });
    const subject = String(input.subject ?? "selection").replace(/[^A-Za-z0-9._-]/g, "_");
    return new Response(stream, {
      headers: {
        "content-type": "text/csv; charset=utf-8",
        "content-disposition": `attachment; filename="weir-reset-preview-${subject}.csv"`,
        "cache-control": "no-store",
      },
    });
  } catch (err) {
    return failureResponse(err);
  }
}
