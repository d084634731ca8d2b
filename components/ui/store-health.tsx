"use client";
import { useQuery } from "@tanstack/react-query";
import { useRouter } from "next/navigation";
import { useEffect, useRef } from "react";
import { StoreUnavailableBanner } from "./store-unavailable";

const UP_POLL_MS = 15_000;
const DOWN_POLL_MS = 3_000;

interface Health {
  reachable: boolean;
  /** Why this node is refusing work (shedding, a lowered limit, a full waiting room); null when it is not. */
  degraded: { message: string } | null;
}

async function readHealth(): Promise<Health> {
  try {
    const response = await fetch("/api/health", { cache: "no-store" });
    const body = (await response.json().catch(() => ({}))) as { degraded?: { message?: unknown } | null };
    const message = body.degraded?.message;
    return { reachable: response.ok, degraded: response.ok && typeof message === "string" ? { message } : null };
  } catch {
    return { reachable: false, degraded: null };
  }
}

function useHealth<T>(initiallyReachable: boolean, select: (health: Health) => T) {
  return useQuery({
    queryKey: ["store-health"],
    queryFn: readHealth,
    select,
    initialData: { reachable: initiallyReachable, degraded: null },
    initialDataUpdatedAt: 0,
    refetchInterval: (query) => (query.state.data?.reachable === false ? DOWN_POLL_MS : UP_POLL_MS),
    refetchIntervalInBackground: false,
  });
}

/**
 * Whether the dedup store answers, from weir's public /api/health, shared by every
 * component of the page: checked every 15 s, every 3 s while it is down.
 */
export function useStoreHealth(initiallyReachable: boolean) {
  return useHealth(initiallyReachable, (health) => health.reachable);
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

/**
 * The layout's live banner under the header: appears on any page when the store goes down (the page
 * reloads its data when it is back), or while this node sheds load, saying why.
 */
export function StoreWatch({ initiallyReachable }: { initiallyReachable: boolean }) {
  const router = useRouter();
  const { data: reachable } = useStoreHealth(initiallyReachable);
  const { data: degraded } = useHealth(initiallyReachable, (health) => health.degraded);
  useOnRecovery(reachable, router.refresh);
  if (!reachable) return <StoreUnavailableBanner />;
  return degraded ? (
    <div className="banner" role="status" data-testid="shedding-banner" style={{ background: "var(--callout-bg)", borderBottom: "1px solid var(--line)" }}>
      This weir node is refusing work to protect the rest: {degraded.message}.
    </div>
  ) : null;
}
