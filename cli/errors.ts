import { ZodError } from "zod";
import { isStoreUnavailable } from "@/db/unavailable";
import { CanonicalJsonError } from "@/lib/dedup/canonical/errors";
import { WeirError } from "@/lib/errors";
import { WeirApiError, WeirClientError } from "@weir/client";
import { fieldOf } from "@/lib/http/respond";
import { CliError, EXIT } from "./exit-codes";
import { MissingDatabaseError, NotMigratedError, sqlState } from "./schema-check";

function refusedOrUsage(status: number): number {
  if (status === 400 || status === 413) return EXIT.usage;
  if (status === 503 || status === 429) return EXIT.unavailable;
  return EXIT.refused;
}

/**
 * One readable line and an exit code for anything a command throws: the one place
 * where the CLI maps errors. No line ever carries SQL, statement parameters or
 * secrets: driver errors are named by their SQLSTATE only.
 */
export function describeError(err: unknown): { message: string; exitCode: number } {
  if (err instanceof CliError) return { message: err.message, exitCode: err.exitCode };
  if (err instanceof NotMigratedError) {
    const count = err.pending ? ` (${err.pending.applied} of ${err.pending.expected} migrations applied)` : "";
    return { message: `the database at ${err.database} is not migrated${count}: run \`weir migrate\``, exitCode: EXIT.unavailable };
  }
  if (err instanceof MissingDatabaseError) {
    return { message: `the database at ${err.database} does not exist: create it, then run \`weir migrate\``, exitCode: EXIT.unavailable };
  }
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
    const reason = networkReason(err);
    const cause = reason ? `: ${reason}` : "";
    return { message: `the database is unreachable${cause}; nothing was changed. Check DATABASE_URL and that PostgreSQL is up`, exitCode: EXIT.unavailable };
  }
  if (err instanceof WeirError && err.field === "confirmation" && err.details?.subject !== undefined) {
    // A large reset asks to type its subject: on the command line that is --confirm.
    const { planned, subject } = err.details;
    return { message: `this resets ${String(planned)} keys: check with --dry-run, then add --confirm ${String(subject)}`, exitCode: EXIT.refused };
  }
  if (err instanceof WeirError) {
    const field = err.field ? ` (${err.field})` : "";
    return { message: `${err.message}${field}`, exitCode: refusedOrUsage(err.status) };
  }
  const state = sqlState(err);
  if (state) return { message: `the database refused the command (SQLSTATE ${state})`, exitCode: EXIT.failed };
  const message = err instanceof Error ? err.message : String(err);
  return { message: `unexpected error: ${message.startsWith("Failed query") ? "a database statement failed" : message}`, exitCode: EXIT.failed };
}

/** The innermost driver or network message ("connect ECONNREFUSED 127.0.0.1:1"), never a wrapped statement. */
function networkReason(err: unknown): string | undefined {
  let inner: unknown = err;
  for (let depth = 0; depth < 4 && inner instanceof Error && inner.cause instanceof Error; depth++) inner = inner.cause;
  if (!(inner instanceof Error) || inner === err || inner.message.startsWith("Failed query")) return undefined;
  return inner.message;
}
