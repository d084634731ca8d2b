"use client";
import { useEffect } from "react";

/**
 * Error state of a console route. Server errors arrive without their message
 * in production (only a digest to find the log line), so this never shows one.
 */
export function RouteError({ error, retry }: { error: unknown; retry: () => void }) {
  const digest = error instanceof Error ? (error as Error & { digest?: string }).digest : undefined;
  useEffect(() => console.error(error), [error]);
  return (
    <div className="panel callout callout-danger" role="alert" data-testid="route-error">
      <strong>This page could not be loaded.</strong>
      <p className="muted small">
        The error was logged on the server{digest ? ` (reference ${digest})` : ""}. If the dedup store is down, the banner above says so.
      </p>
      <button type="button" onClick={() => retry()}>
        Try again
      </button>
    </div>
  );
}
