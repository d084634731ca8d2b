import { ZodError } from "zod";
import { isStoreUnavailable } from "@/db/unavailable";
import { CanonicalJsonError } from "@/lib/dedup/canonical/errors";
import { WeirError } from "@/lib/errors";
import { WeirApiError, WeirClientError } from "@/lib/client/errors";
import { fieldOf } from "@/lib/http/respond";
import { CliError, EXIT } from "./exit-codes";

function refusedOrUsage(status: number): number {
  if (status === 400 || status === 413) return EXIT.usage;
  if (status === 503 || status === 429) return EXIT.unavailable;
  return EXIT.refused;
}

/** One readable line and an exit code for anything a command throws. */
export function describeError(err: unknown): { message: string; exitCode: number } {
  if (err instanceof CliError) return { message: err.message, exitCode: err.exitCode };
  if (err instanceof ZodError) {
    const issue = err.issues[0];
    const field = issue ? fieldOf(issue.path) : undefined;
    return { message: `invalid input${field ? ` (${field})` : ""}: ${issue?.message ?? "invalid"}`, exitCode: EXIT.usage };
  }
  if (err instanceof CanonicalJsonError) return { message: err.message, exitCode: EXIT.usage };
  // Errors of calls to a running weir (simulate) come before the database checks: their causes look alike.
  if (err instanceof WeirApiError) {
    const field = err.field ? ` (${err.field})` : "";
    return { message: `weir refused: ${err.message}${field}`, exitCode: refusedOrUsage(err.status) };
  }
  if (err instanceof WeirClientError) return { message: err.message, exitCode: EXIT.unavailable };
  if (isStoreUnavailable(err)) {
    const cause = err instanceof Error && err.cause instanceof Error ? `: ${err.cause.message}` : "";
    return { message: `the database is unreachable${cause}; nothing was changed. Check DATABASE_URL and that PostgreSQL is up`, exitCode: EXIT.unavailable };
  }
  if (err instanceof WeirError) {
    const field = err.field ? ` (${err.field})` : "";
    return { message: `${err.message}${field}`, exitCode: refusedOrUsage(err.status) };
  }
  const message = err instanceof Error ? err.message : String(err);
  return { message: `unexpected error: ${message}`, exitCode: EXIT.failed };
}
