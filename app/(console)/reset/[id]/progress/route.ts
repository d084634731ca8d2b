import { requireConsoleActor } from "@/lib/auth/console-actor";
import { toActionFailure } from "@/lib/console/action-result";
import { consoleDb } from "@/lib/console/store";
import { getResetProgress } from "@/lib/reset/progress";

export const dynamic = "force-dynamic";

const STATUS: Record<string, number> = {
  unauthorized: 401,
  forbidden: 403,
  not_found: 404,
  invalid_request: 400,
  store_unavailable: 503,
};

/** The progress of one reset, polled by its page while it runs. */
export async function GET(_request: Request, { params }: { params: Promise<{ id: string }> }) {
  try {
    const actor = await requireConsoleActor("read");
    const progress = await getResetProgress({ db: await consoleDb(), actor, input: { batchId: (await params).id }, getDb: consoleDb });
    return Response.json(progress, { headers: { "cache-control": "no-store" } });
  } catch (err) {
    const failure = toActionFailure(err);
    return Response.json(failure, { status: STATUS[failure.code] ?? 500, headers: { "cache-control": "no-store" } });
  }
}
