import { useRouter } from "next/navigation";
import { useCallback } from "react";
import type { ActionFailure } from "./action-result";

/**
 * What the browser does with a failed action besides showing it: a stale or
 * missing sign-in goes to the sign-in page, which brings the user back here.
 */
export function useFollowFailure(): (failure: ActionFailure) => void {
  const router = useRouter();
  return useCallback(
    (failure: ActionFailure) => {
      if (failure.code !== "reauth_required" && failure.code !== "unauthorized") return;
      const next = `${window.location.pathname}${window.location.search}`;
      router.push(`/sign-in?${failure.code === "reauth_required" ? "reauth=1&" : ""}next=${encodeURIComponent(next)}`);
    },
    [router],
  );
}
