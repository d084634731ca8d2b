import { ZodError } from "zod";
import { isStoreUnavailable } from "@/db/unavailable";
import { CanonicalJsonError } from "@/lib/dedup/canonical/errors";
import { WeirError } from "@/lib/errors";

export type ActionFailure = {
  ok: false;
  code: string;
  message: string;
  fieldErrors?: Record<string, string[]>;
};

export type ActionResult<T> = { ok: true; data: T } | ActionFailure;

/**
 * Maps what a server action threw to a result the browser may see. Messages
 * of weir's own typed errors are written for users; anything else is logged
 * and replaced by a generic message, never passed through.
 */
export function toActionFailure(err: unknown): ActionFailure {
  if (err instanceof ZodError) {
    return { ok: false, code: "invalid_request", message: "Some fields need attention.", fieldErrors: fieldErrorsOf(err) };
  }
  if (isStoreUnavailable(err)) {
    return { ok: false, code: "store_unavailable", message: "The dedup store is unreachable; nothing was changed. Try again shortly." };
  }
  if (err instanceof CanonicalJsonError) {
    return { ok: false, code: err.code, message: err.message, fieldErrors: { payload: [err.message] } };
  }
  if (err instanceof WeirError) {
    const failure: ActionFailure = { ok: false, code: err.code, message: err.message };
    if (err.field) failure.fieldErrors = { [err.field]: [err.message] };
    return failure;
  }
  console.error("[weir] console action failed:", err);
  return { ok: false, code: "internal", message: "Something went wrong on the server; it has been logged." };
}

/** Issues keyed by the field they concern (the last path segment), so nested inputs map onto flat forms. */
export function fieldErrorsOf(err: ZodError): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const issue of err.issues) {
    const key = String(issue.path.at(-1) ?? "form");
    (out[key] ??= []).push(issue.message);
  }
  return out;
}

export async function runAction<T>(work: () => Promise<T>): Promise<ActionResult<T>> {
  try {
    return { ok: true, data: await work() };
  } catch (err) {
    return toActionFailure(err);
  }
}
