import type { DecisionOrigin } from "@/lib/telemetry/decisions";

export interface StoredResponse {
  status: number;
  /** The body exactly as `complete` received it. */
  body: string;
  headers: Record<string, string>;
}

export interface IdempotencyKeyRef {
  scope: string;
  key: string;
  /** Structural hash of the request, 64 lowercase hex digits. */
  requestHash: string;
  /** Who asked (the journal's caller, request id and trace); set by the door. */
  origin?: DecisionOrigin;
  /** The caller's ref (job id, request id, note), kept with a begin that takes the key and returned to every other. */
  ref?: string;
}

/** Every answer says why: the attempt that holds or completed the key, and since when. */
export type BeginResult =
  | { outcome: "started"; attempt: number; lockedUntil: Date }
  | { outcome: "in_progress"; attempt: number; lockedUntil: Date; startedAt: Date; firstRef: string | null }
  | { outcome: "completed"; attempt: number; response: StoredResponse; completedAt: Date; firstRef: string | null }
  | { outcome: "mismatch"; storedHash: string; requestHash: string; firstRef: string | null };
