import { requireConsoleCaller } from "@/lib/auth/console-actor";
import { failureResponse } from "@/lib/console/route-failure";
import { consoleDb } from "@/lib/console/store";
import { getResetProgress } from "@/lib/reset/progress";

export const dynamic = "force-dynamic";

/** The progress of one reset, polled by its page while it runs. */
export async function GET(_request: Request, { params }: { params: Promise<{ id: string }> }) {
  try {
    const actor = await requireConsoleCaller("read");
    const progress = await getResetProgress({ db: await consoleDb(), actor, input: { batchId: (await params).id }, getDb: consoleDb });
    return Response.json(progress, { headers: { "cache-control": "no-store" } });
  } catch (err) {
    return failureResponse(err);
  }
}
