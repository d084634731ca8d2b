import { CanonicalJsonError } from "./errors";

/** Runs `fn`, which must throw a CanonicalJsonError, and returns that error. */
export function catchCanonicalError(fn: () => unknown): CanonicalJsonError {
  try {
    fn();
  } catch (error) {
    if (error instanceof CanonicalJsonError) return error;
    throw error;
  }
  throw new Error("expected a CanonicalJsonError, but nothing was thrown");
}
