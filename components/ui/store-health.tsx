"use client";
import { useQuery } from "@tanstack/react-query";
import { useRouter } from "next/navigation";
import { useEffect, useRef } from "react";
import { StoreUnavailableBanner } from "./store-unavailable";

const UP_POLL_MS = 15_000;
const DOWN_POLL_MS = 3_000;

/**
 * Whether the dedup store answers, from weir's public /api/health, shared by every
 * component of the page: checked every 15 s, every 3 s while it is down.
 */
export function useStoreHealth(initiallyReachable: boolean) {
  return useQuery({
    queryKey: ["store-health"],
    queryFn: async () => {
      try {
        return (await fetch("/api/health", { cache: "no-store" })).ok;
      } catch {
        return false;
      }
    },
    initialData: initiallyReachable,
    initialDataUpdatedAt: 0,
    refetchInterval: (query) => (query.state.data === false ? DOWN_POLL_MS : UP_POLL_MS),
    refetchIntervalInBackground: false,
  });
}

/** Calls `onBack` once when the store answers again after having been down. */
export function useOnRecovery(reachable: boolean, onBack: () => void) {
  const wasDown = useRef(!reachable);
  useEffect(() => {
    if (!reachable) wasDown.current = true;
    else if (wasDown.current) {
      wasDown.current = false;
      onBack();
    }
  }, [reachable, onBack]);
}

/** The layout's live banner: appears on any page when the store goes down, and the page reloads its data when it is back. */
export function StoreWatch({ initiallyReachable }: { initiallyReachable: boolean }) {
  const router = useRouter();
  const { data: reachable } = useStoreHealth(initiallyReachable);
  useOnRecovery(reachable, router.refresh);
  return reachable ? null : <StoreUnavailableBanner />;
}
