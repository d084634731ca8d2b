import type { z } from "zod";
import type {
  checkBatchResponseSchema,
  checkRequestSchema,
  checkResponseSchema,
  decisionSchema,
  revertRequestSchema,
  revertResponseSchema,
} from "../../../lib/validation/check";
import type {
  beginCompletedSchema,
  beginStartedSchema,
  completeRequestSchema,
  completeResponseSchema,
  deleteKeyResponseSchema,
  inProgressErrorSchema,
  keyStateSchema,
  mismatchErrorSchema,
  putScopeResponseSchema,
  putScopeSchema,
  releaseRequestSchema,
  releaseResponseSchema,
  scopeSchema,
  storedResponseSchema,
} from "../../../lib/validation/idempotency";
import type {
  JOURNAL_MODES,
  journalEntrySchema,
  journalKeyResponseSchema,
  journalLevelResponseSchema,
  journalRangeResponseSchema,
  setJournalLevelResponseSchema,
  setJournalLevelSchema,
} from "../../../lib/validation/journal";
import type { keyDetailSchema, serviceSchema, serviceSettingsSchema } from "../../../lib/validation/services";
import type { explainRequestSchema, explanationSchema } from "../../../lib/validation/console-explain";
import type {
  createdTokenSchema,
  createTokenSchema,
  createUserSchema,
  disableUserSchema,
  resetPasswordSchema,
  setUserRoleSchema,
  tokenSchema,
} from "../../../lib/validation/tokens";
import type { releaseStuckResultSchema, releaseStuckSchema, stuckPreviewSchema } from "../../../lib/validation/console-idempotency";
import type {
  erasePreviewSchema,
  eraseResultSchema,
  eraseSchema,
  eraseSelectionSchema,
  retentionBodySchema,
  retentionChangeResultSchema,
} from "../../../lib/validation/erase";
import type {
  claimBatchResponseSchema,
  claimReleaseRequestSchema,
  claimReleaseResponseSchema,
  claimRequestSchema,
  claimResponseSchema,
  cleanupRequestSchema,
  cleanupResponseSchema,
  consumerGroupListSchema,
  putConsumerGroupResponseSchema,
  putConsumerGroupSchema,
  ttlChangesResponseSchema,
  ttlPreviewResponseSchema,
} from "../../../lib/validation/window";

// Every type here is derived from the zod schemas the server validates with,
// so the client and the API cannot drift apart silently.

/** The payload may be any JSON-serialisable value (interfaces included). */
export type CheckRequest = Omit<z.input<typeof checkRequestSchema>, "payload"> & { payload: unknown };
export type CheckResponse = z.output<typeof checkResponseSchema>;
export type CheckBatchResponse = z.output<typeof checkBatchResponseSchema>;
export type Decision = z.output<typeof decisionSchema>;
export type RevertRequest = z.input<typeof revertRequestSchema>;
export type RevertResponse = z.output<typeof revertResponseSchema>;

export type ClaimRequest = z.input<typeof claimRequestSchema>;
export type ClaimResponse = z.output<typeof claimResponseSchema>;
export type ClaimBatchResponse = z.output<typeof claimBatchResponseSchema>;
export type ReleaseClaimInput = z.input<typeof claimReleaseRequestSchema>;
export type ReleaseClaimResponse = z.output<typeof claimReleaseResponseSchema>;

export type ServiceSettings = z.input<typeof serviceSettingsSchema>;
export type Service = z.output<typeof serviceSchema>;
export type KeyDetail = z.output<typeof keyDetailSchema>;
export type ExplainRequest = z.input<typeof explainRequestSchema>;
export type Explanation = z.output<typeof explanationSchema>;

export type ConsumerGroupList = z.output<typeof consumerGroupListSchema>;
export type PutConsumerGroupInput = z.input<typeof putConsumerGroupSchema>;
export type PutConsumerGroupResponse = z.output<typeof putConsumerGroupResponseSchema>;
export type TtlPreview = z.output<typeof ttlPreviewResponseSchema>;
export type TtlChanges = z.output<typeof ttlChangesResponseSchema>;

export type CleanupRequest = z.input<typeof cleanupRequestSchema>;
export type CleanupResponse = z.output<typeof cleanupResponseSchema>;

/** The request behind an idempotency key: the request itself (hashed by weir) or its structural hash. */
export type RequestIdentity = { request: unknown; requestHash?: never } | { requestHash: string; request?: never };
export type BeginInput = {
  key: string;
  /** Wait up to this many seconds (at most 30) for another caller's result instead of an in_progress answer. */
  waitSeconds?: number;
  /** Caller data kept with a begin that takes the key (at most 256 bytes of UTF-8); other begins get it back as firstRef. */
  ref?: string;
} & RequestIdentity;
export type StoredResponse = z.input<typeof storedResponseSchema>;
/** `attempt` may be left out: the client sends the one its own `begin` of the key returned. */
export type CompleteInput = Omit<z.input<typeof completeRequestSchema>, "request" | "requestHash" | "attempt"> & RequestIdentity & { attempt?: number };
export type CompleteResponse = z.output<typeof completeResponseSchema>;
export type ReleaseInput = Omit<z.input<typeof releaseRequestSchema>, "attempt"> & { attempt?: number };
export type ReleaseResponse = z.output<typeof releaseResponseSchema>;
export type IdempotencyScope = z.output<typeof scopeSchema>;
export type PutScopeInput = z.input<typeof putScopeSchema>;
export type PutScopeResponse = z.output<typeof putScopeResponseSchema>;
export type IdempotencyKeyState = z.output<typeof keyStateSchema>;
export type DeleteKeyResponse = z.output<typeof deleteKeyResponseSchema>;

type InProgressError = z.output<typeof inProgressErrorSchema>["error"];
type MismatchError = z.output<typeof mismatchErrorSchema>["error"];

/** Every answer of `begin`: 201 started, 200 completed, 409 in progress and 422 mismatch are all outcomes, not errors. */
export type BeginResult =
  | z.output<typeof beginStartedSchema>
  | z.output<typeof beginCompletedSchema>
  | ({ outcome: "in_progress"; scope: string; key: string; retryAfterSeconds?: number } & Omit<InProgressError, "code">)
  | { outcome: "mismatch"; scope: string; key: string; storedHash: string; requestHash: string; firstRef: string | null; message: MismatchError["message"] };

export type JournalMode = (typeof JOURNAL_MODES)[number];
export type JournalEntry = z.output<typeof journalEntrySchema>;
export type JournalRangePage = z.output<typeof journalRangeResponseSchema>;
export type JournalKeyPage = z.output<typeof journalKeyResponseSchema>;
export type JournalLevel = z.output<typeof journalLevelResponseSchema>;
export type SetJournalLevelInput = z.input<typeof setJournalLevelSchema>;
export type SetJournalLevelResponse = z.output<typeof setJournalLevelResponseSchema>;
/** A range of a subject's journal: ISO 8601 times (Dates are sent to the millisecond), filters, and a page. */
export interface JournalRangeQuery {
  from: string | Date;
  to: string | Date;
  decision?: string | readonly string[];
  caller?: string;
  key?: string;
  /** The previous page's `nextCursor`, with the same from and to. */
  cursor?: string;
  /** 1-1000, default 100. */
  limit?: number;
}

export type CreateTokenInput = z.input<typeof createTokenSchema>;
export type ApiToken = z.output<typeof tokenSchema>;
export type CreatedToken = z.output<typeof createdTokenSchema>;
export type CreateUserInput = z.input<typeof createUserSchema>;
export type SetUserRoleInput = z.input<typeof setUserRoleSchema>;
export type StuckPreview = z.output<typeof stuckPreviewSchema>;
export type ReleaseStuckInput = Omit<z.input<typeof releaseStuckSchema>, "scope">;
export type ReleaseStuckResult = z.output<typeof releaseStuckResultSchema>;
export type EraseSelection = z.input<typeof eraseSelectionSchema>;
export type EraseInput = z.input<typeof eraseSchema>;
export type ErasePreview = z.output<typeof erasePreviewSchema>;
export type EraseResult = z.output<typeof eraseResultSchema>;
export type RetentionInput = z.input<typeof retentionBodySchema>;
export type RetentionChange = z.output<typeof retentionChangeResultSchema>;
export type DisableUserInput = z.input<typeof disableUserSchema>;
export type ResetPasswordInput = z.input<typeof resetPasswordSchema>;
export interface User {
  id: string;
  email: string;
  name: string;
  role: "viewer" | "operator" | "admin";
}

export interface Health {
  status: "ok" | "unavailable";
  store: { reachable: boolean; kind?: string; latencyMs?: number; error?: string };
}
