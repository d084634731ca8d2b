import type { NatsConnection } from "@nats-io/transport-node";
import type { DbOrTx } from "@/db/types";
import type { Actor } from "@/lib/auth/actor";
import { authorize } from "@/lib/auth/authorize";
import { guardDestructive } from "@/lib/auth/recent-sign-in";
import { UnprocessableError } from "@/lib/errors";
import { MAX_LIST_IDS } from "@/lib/reset/constants";
import { previewReset } from "@/lib/reset/preview-reset";
import { startReset } from "@/lib/reset/start-reset";
import type { ResetView } from "@/lib/reset/views";
import { reasonSchema } from "@/lib/validation/window";
import { replayRangeSchema, type ReplayRange, type ReplayRangeInput } from "@/lib/validation/replay";
import { readRange, type RangeRead } from "./read-range";

/** Runs `work` on a connection to the NATS server (the door decides which server, and closes it). */
export type WithNats = <T>(work: (nats: NatsConnection) => Promise<T>) => Promise<T>;

export interface ReplayPreview extends Omit<RangeRead, "ids"> {
  /** Distinct ids the range names. */
  idCount: number;
  /** Of them, keys that have state (what the reset removes). */
  count: number;
  /** Ids with no state (nothing to reset for them: the replay finds them new anyway). */
  missing: number;
  sample: { messageId: string; at: string; version: number | null }[];
  /** Resets the range becomes: the list mode takes at most MAX_LIST_IDS ids each. */
  parts: number;
  confirmWord: string | null;
}

const pages = (ids: string[]) => Array.from({ length: Math.ceil(ids.length / MAX_LIST_IDS) }, (_, i) => ids.slice(i * MAX_LIST_IDS, (i + 1) * MAX_LIST_IDS));

const selectionOf = (range: ReplayRange, ids: string[]) => ({ kind: range.kind, subject: range.subject, mode: "list" as const, messageIds: ids.join("\n") });

function authorizeRange(actor: Actor, range: ReplayRange): void {
  authorize(actor, "operate", { kind: range.kind === "last_seen" ? "services" : "consumerGroups", id: range.subject });
}

/** Reads the range from JetStream and previews the reset of exactly the keys it names. Changes nothing. */
export async function previewReplayReset({ db, actor, nats, input }: { db: DbOrTx; actor: Actor; nats: WithNats; input: ReplayRangeInput }): Promise<ReplayPreview> {
  authorize(actor, "operate");
  const range = replayRangeSchema.parse(input);
  authorizeRange(actor, range);
  const { ids, ...read } = await nats((connection) => readRange(connection, range));
  const preview: ReplayPreview = { ...read, idCount: ids.length, count: 0, missing: 0, sample: [], parts: 0, confirmWord: null };
  for (const page of pages(ids)) {
    const part = await previewReset({ db, actor, input: selectionOf(range, page) });
    preview.count += part.count;
    preview.missing += part.missing ?? 0;
    if (preview.sample.length === 0) preview.sample = part.sample;
    if (part.count > 0) preview.parts++;
    preview.confirmWord ??= part.confirmWord;
  }
  return preview;
}

/**
 * Resets exactly the keys a JetStream range names, through reset's list mode (reason, confirmation,
 * audit and undo as any reset): one reset per MAX_LIST_IDS ids, pages with nothing to reset skipped.
 * The range is read again here, so what runs is what the stream holds now.
 */
export async function startReplayReset({
  db,
  actor,
  nats,
  input,
}: {
  db: DbOrTx;
  actor: Actor;
  nats: WithNats;
  input: { range: ReplayRangeInput; reason: string; confirmation?: string };
}): Promise<ResetView[]> {
  authorize(actor, "operate");
  await guardDestructive(actor, db);
  const range = replayRangeSchema.parse(input.range);
  const reason = reasonSchema.parse(input.reason);
  authorizeRange(actor, range);
  const { ids, firstSeq, lastSeq } = await nats((connection) => readRange(connection, range));
  const where = `JetStream ${range.stream} seq ${firstSeq ?? "-"}..${lastSeq ?? "-"}`;
  const resets: ResetView[] = [];
  for (const page of pages(ids)) {
    const selection = selectionOf(range, page);
    if ((await previewReset({ db, actor, input: selection })).count === 0) continue;
    resets.push(await startReset({ db, actor, input: { selection, reason: `${reason} (${where})`.slice(0, 1000), confirmation: input.confirmation } }));
  }
  if (resets.length === 0) throw new UnprocessableError(`no key the range names (${ids.length} ids in ${where}) has state; there is nothing to reset`);
  return resets;
}
