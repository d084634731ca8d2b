import { ConflictError, NotFoundError, UnprocessableError } from "@/lib/errors";
import type { KeyState } from "./statements";

interface FencedCall {
  scope: string;
  key: string;
  attempt: number;
  requestHash?: string;
}

/**
 * Why complete or release did not apply, read from the key's live state. Returns
 * the state only when this very attempt completed the key (a repeated complete);
 * every other case is an error: absent (404), another request (422), another attempt (409).
 */
export function refuseStale(input: FencedCall, state: KeyState | undefined, verb: "complete" | "release"): KeyState {
  if (!state) throw new NotFoundError(`idempotency key ${input.key} is not held in scope ${input.scope}; call begin first`, "key");
  if (input.requestHash !== undefined && state.stored_hash !== input.requestHash) {
    throw new UnprocessableError("the idempotency key was used for a different request", "mismatch", {
      storedHash: state.stored_hash,
      requestHash: input.requestHash,
    });
  }
  const attempt = Number(state.attempt);
  const details = { attempt, status: state.status };
  if (attempt !== input.attempt) {
    const now = state.status === "completed" ? "completed it" : "holds it";
    throw new ConflictError(`attempt ${input.attempt} no longer holds idempotency key ${input.key}: attempt ${attempt} ${now}`, "conflict", details);
  }
  if (state.status === "completed" && verb === "release") {
    throw new ConflictError(`idempotency key ${input.key} is completed; a completed key cannot be released`, "conflict", details);
  }
  if (state.status === "completed") return state;
  throw new ConflictError(`idempotency key ${input.key} changed while it was being ${verb}d; read it and retry`, "conflict", details);
}
