export { WeirClient, createWeirClient, type WeirClientOptions } from "./client";
export type { CoalesceOptions } from "./coalescer";
export { WeirApiError, WeirClientError, WeirConnectionError, WeirProtocolError, WeirTimeoutError, type DecisionOutcome } from "./errors";
export { idempotencyKey, keysFor, producerHeaders, type BusinessFields } from "./producer";
export { REQUEST_ID_HEADER, currentRequestId, newRequestId, requestIdFrom, requestIdHeaders, withRequestId } from "./request-id";
export type { CallOptions, RetryInfo, TransportOptions } from "./transport";
export type * from "./types";
export {
  DedupInProgressError,
  DedupMismatchError,
  withDedup,
  type DedupCounts,
  type DedupHandler,
  type DedupLogger,
  type DedupOptions,
  type DedupOutcome,
  type GroupDedupOptions,
  type HandlerContext,
  type ServiceDedupOptions,
} from "./with-dedup";
