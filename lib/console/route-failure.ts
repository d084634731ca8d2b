import { unstable_rethrow } from "next/navigation";
import { RateLimitedError, WeirError } from "@/lib/errors";
import { toActionFailure } from "./action-result";

/**
 * What a console route handler (a download, a poll) answers when it fails: the
 * body a server action would return, with the status the typed error carries
 * (404, 409, 429...) as the machine API answers it. Unknown errors stay a logged 500.
 * Route handlers use requireConsoleCaller, which answers a signed-out caller 401.
 */
export function failureResponse(err: unknown): Response {
  // Next's own control flow (a redirect to sign-in, notFound) is not a failure: it goes on to Next.
  unstable_rethrow(err);
  const failure = toActionFailure(err);
  const headers: Record<string, string> = { "cache-control": "no-store" };
  if (err instanceof RateLimitedError) headers["retry-after"] = String(err.retryAfterSeconds);
  return Response.json(failure, { status: statusOf(err, failure.code), headers });
}

function statusOf(err: unknown, code: string): number {
  if (err instanceof WeirError) return err.status;
  if (code === "store_unavailable") return 503;
  return code === "internal" ? 500 : 400; // invalid_request (zod) and the JSON parser's own codes
}
