"use client";
import { useState } from "react";

/** Copies the full value (ids, hashes, a new token's secret), whatever the page shows of it. */
export function CopyButton({ value, label }: { value: string; label: string }) {
  const [state, setState] = useState<"idle" | "copied" | "failed">("idle");
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(value);
      setState("copied");
    } catch {
      setState("failed");
    }
    setTimeout(() => setState("idle"), 2_000);
  };
  return (
    <button type="button" className="copy" onClick={copy} aria-label={`Copy ${label}`} title={`Copy ${label}`} data-testid="copy">
      {state === "copied" ? "Copied" : state === "failed" ? "Copy failed" : "Copy"}
    </button>
  );
}
