import type { WeirClient } from "./client";
import { WeirClientError } from "./errors";
import type { CallOptions } from "./transport";
import type { Decision } from "./types";

export interface DedupCounts {
  /** Handler ran and succeeded. */
  processed: number;
  /** Duplicates skipped without running the handler. */
  skipped: number;
  /** Handler threw. */
  failed: number;
  /** Keys given back after a failure, so the redelivery runs the handler again. */
  released: number;
  /** Another consumer holds the key right now; the message should come back later. */
  inProgress: number;
  /** The message id was used before for different content. */
  mismatched: number;
}

export type DedupOutcome<R> =
  | { status: "processed"; messageId: string; result: R }
  | { status: "skipped"; messageId: string; reason: "duplicate" | "completed" };

export interface DedupLogger {
  info(message: string): void;
  warn(message: string): void;
}

interface CommonOptions<M> {
  client: WeirClient;
  /** The id that is the same for every delivery of one message (a producer's idempotency key, an event id). */
  messageId: (message: M) => string;
  /** "duplicate skipped" lines and release warnings; `false` for none. Default: console. */
  logger?: DedupLogger | false;
  call?: CallOptions;
}

/**
 * Projection dedup: skip a message whose payload is the same as the last one this service
 * accepted for the key. When the handler throws, the check's decision is reverted, so the
 * redelivery runs the handler again.
 */
export interface ServiceDedupOptions<M> extends CommonOptions<M> {
  serviceId: string;
  payload: (message: M) => unknown;
}

/**
 * Once per window per message for a consumer group, on window claims: the
 * message is claimed before the handler runs (a redelivery inside the group's
 * TTL is skipped as a duplicate, also while the handler still runs) and the
 * claim is released when the handler throws, so the redelivery runs it again.
 * A consumer that crashes mid-handler holds the message until the window ends.
 */
export interface GroupDedupOptions<M> extends CommonOptions<M> {
  consumerGroup: string;
  /** @deprecated Ignored: window claims key on the message id only (idempotency keys compared the request). */
  request?: (message: M) => unknown;
}

export type DedupOptions<M> = ServiceDedupOptions<M> | GroupDedupOptions<M>;

export interface HandlerContext {
  messageId: string;
  /** `new`/`changed` for a service, `new` for a group. */
  decision: Decision;
  /** Attempt number of the idempotency key (consumer groups only). */
  attempt?: number;
}

/** Another consumer is working on this message now: redeliver it after `lockedUntil`. */
export class DedupInProgressError extends WeirClientError {
  constructor(readonly messageId: string, readonly lockedUntil: string) {
    super(`message ${messageId} is being handled by another consumer until ${lockedUntil}`, "not_made", true, undefined);
  }
}

/** The message id was already used for a different request: a producer bug, never retried into success. */
export class DedupMismatchError extends WeirClientError {
  constructor(readonly messageId: string, readonly storedHash: string, readonly requestHash: string) {
    super(`message id ${messageId} was used before for different content`, "not_made", false, undefined);
  }
}

export interface DedupHandler<M, R> {
  (message: M): Promise<DedupOutcome<R>>;
  /** What the wrapper did so far (a live view). */
  readonly counts: Readonly<DedupCounts>;
}

/**
 * Wraps a message handler so that duplicates are skipped, failures give the
 * message back, and every skip is counted. A failed weir call is thrown, never
 * turned into a decision: the consumer should not ack, and let the broker redeliver.
 */
export function withDedup<M, R>(handler: (message: M, context: HandlerContext) => Promise<R>, options: DedupOptions<M>): DedupHandler<M, R> {
  const counts: DedupCounts = { processed: 0, skipped: 0, failed: 0, released: 0, inProgress: 0, mismatched: 0 };
  const logger = options.logger === false ? undefined : (options.logger ?? { info: console.info, warn: console.warn });
  const run = "consumerGroup" in options ? groupRunner(handler, options, counts, logger) : serviceRunner(handler, options, counts, logger);
  return Object.assign(run, { counts });
}

type Runner<M, R> = (message: M) => Promise<DedupOutcome<R>>;

function serviceRunner<M, R>(
  handler: (message: M, context: HandlerContext) => Promise<R>,
  options: ServiceDedupOptions<M>,
  counts: DedupCounts,
  logger: DedupLogger | undefined,
): Runner<M, R> {
  const { client, serviceId } = options;
  return async (message) => {
    const messageId = options.messageId(message);
    const decided = await client.check({ serviceId, messageId, payload: options.payload(message) }, options.call);
    if (decided.decision === "duplicate") {
      counts.skipped++;
      logger?.info(`[weir] duplicate skipped: service=${serviceId} messageId=${messageId} version=${decided.version} hash=${decided.hash.slice(0, 12)}`);
      return { status: "skipped", messageId, reason: "duplicate" };
    }
    try {
      const result = await handler(message, { messageId, decision: decided.decision });
      counts.processed++;
      return { status: "processed", messageId, result };
    } catch (err) {
      counts.failed++;
      try {
        // Compare-and-swap on the version: a later change by another consumer is never taken back.
        await client.revert({ serviceId, messageId, version: decided.version }, options.call);
        counts.released++;
      } catch (revertError) {
        logger?.warn(
          `[weir] handler failed after a ${decided.decision} decision and it could not be reverted: service=${serviceId} messageId=${messageId} ` +
            `version=${decided.version} (${(revertError as Error).message}); a redelivery of this payload may be a duplicate`,
        );
      }
      throw err;
    }
  };
}

function groupRunner<M, R>(
  handler: (message: M, context: HandlerContext) => Promise<R>,
  options: GroupDedupOptions<M>,
  counts: DedupCounts,
  logger: DedupLogger | undefined,
): Runner<M, R> {
  const { client, consumerGroup } = options;
  return async (message) => {
    const messageId = options.messageId(message);
    const claimed = await client.claim({ consumerGroup, messageId }, options.call);
    if (claimed.decision === "duplicate") {
      counts.skipped++;
      logger?.info(
        `[weir] duplicate skipped: consumerGroup=${consumerGroup} messageId=${messageId} ` +
          `windowStartedAt=${claimed.windowStartedAt} windowEndsAt=${claimed.windowEndsAt}`,
      );
      return { status: "skipped", messageId, reason: "duplicate" };
    }
    try {
      const result = await handler(message, { messageId, decision: "new" });
      counts.processed++;
      return { status: "processed", messageId, result };
    } catch (err) {
      counts.failed++;
      try {
        // Fenced by this claim's start: a later claim by another consumer is never released.
        const { released } = await client.releaseClaim({ consumerGroup, messageId, claimedAt: claimed.windowStartedAt ?? undefined }, options.call);
        if (released) counts.released++;
      } catch (releaseError) {
        logger?.warn(
          `[weir] could not release the claim of consumerGroup=${consumerGroup} messageId=${messageId} (${(releaseError as Error).message}); ` +
            `a redelivery before ${claimed.windowEndsAt} is skipped as a duplicate`,
        );
      }
      throw err;
    }
  };
}
