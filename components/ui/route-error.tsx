"use client";
import { useEffect } from "react";
import { useOnRecovery, useStoreHealth } from "./store-health";
import { StoreUnavailableNotice } from "./store-unavailable";

/**
 * Error state of a console route. Server errors arrive without their message
 * in production (only a digest to find the log line), so this never shows one.
 * When the cause is the store being down, it says so instead, and retries by
 * itself as soon as /api/health answers again.
 */
export function RouteError({ error, retry }: { error: unknown; retry: () => void }) {
  const digest = error instanceof Error ? (error as Error & { digest?: string }).digest : undefined;
  const health = useStoreHealth(true);
  const { refetch } = health;
  useEffect(() => console.error(error), [error]);
  useEffect(() => void refetch(), [refetch]);
  useOnRecovery(health.data, retry);
  if (!health.data) return <StoreUnavailableNotice />;
  return (
    <div className="panel callout callout-danger" role="alert" data-testid="route-error">
      <strong>This page could not be loaded.</strong>
      <p className="muted small">The error was logged on the server{digest ? ` (reference ${digest})` : ""}.</p>
      <button type="button" onClick={() => retry()}>
        Try again
      </button>
    </div>
  );
}
