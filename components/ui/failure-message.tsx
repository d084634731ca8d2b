import type { ActionFailure } from "@/lib/console/action-result";

/** The message of a failed action (written by weir for users, never a raw exception). */
export function FailureMessage({ failure }: { failure: ActionFailure | null }) {
  if (!failure) return null;
  return (
    <p className="form-error" role="alert" data-testid="action-error">
      {failure.message}
    </p>
  );
}
