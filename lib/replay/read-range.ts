import { DeliverPolicy, jetstream, type JsMsg } from "@nats-io/jetstream";
import type { NatsConnection } from "@nats-io/transport-node";
import { NotFoundError, UnprocessableError } from "@/lib/errors";
import type { ReplayRange } from "@/lib/validation/replay";

/** A range larger than this is refused: its ids are held in memory and reset in pages of MAX_LIST_IDS. */
export const MAX_RANGE_MESSAGES = 200_000;
const FETCH_BATCH = 500;

export interface RangeRead {
  /** Distinct ids, in stream order of their first message. */
  ids: string[];
  messages: number;
  /** Messages whose id location was empty (no header, no value at the path, not JSON). */
  withoutId: number;
  firstSeq: number | null;
  lastSeq: number | null;
}

/** Reads a JSON pointer (RFC 6901) out of a payload; a string or number there is the id. */
function atPointer(value: unknown, pointer: string): string | undefined {
  let at = value;
  for (const raw of pointer.split("/").slice(1)) {
    const token = raw.replaceAll("~1", "/").replaceAll("~0", "~");
    if (at === null || typeof at !== "object") return undefined;
    at = (at as Record<string, unknown>)[token];
  }
  return typeof at === "string" || typeof at === "number" ? String(at) : undefined;
}

function idOf(m: JsMsg, idFrom: ReplayRange["idFrom"]): string | undefined {
  if (idFrom.header !== undefined) return m.headers?.get(idFrom.header) || undefined;
  try {
    return atPointer(m.json(), idFrom.path!);
  } catch {
    return undefined;
  }
}

/**
 * Reads a stream's messages in a sequence or time range through an ordered consumer: an
 * ephemeral consumer of this reader's own, so no message is acked and no durable consumer of the
 * stream moves. The end is fixed when the read starts (the stream's last sequence then).
 */
export async function readRange(nats: NatsConnection, range: ReplayRange): Promise<RangeRead> {
  const js = jetstream(nats);
  const stream = await js.streams.get(range.stream).catch((err: Error) => {
    throw /not found/i.test(err.message) ? new NotFoundError(`JetStream stream ${range.stream} does not exist`, "stream") : err;
  });
  const { state } = await stream.info();
  const read: RangeRead = { ids: [], messages: 0, withoutId: 0, firstSeq: null, lastSeq: null };
  const endSeq = Math.min(range.toSeq ?? Number.POSITIVE_INFINITY, state.last_seq);
  const startSeq = range.fromSeq ?? 1;
  if (state.messages === 0 || endSeq < Math.max(startSeq, state.first_seq)) return read;
  const consumer = await js.consumers.get(
    range.stream,
    range.fromSeq !== undefined
      ? { deliver_policy: DeliverPolicy.StartSequence, opt_start_seq: range.fromSeq }
      : { deliver_policy: DeliverPolicy.StartTime, opt_start_time: range.from!.toISOString() },
  );
  const endMs = range.to?.getTime() ?? Number.POSITIVE_INFINITY;
  const seen = new Set<string>();
  try {
    for (let done = false; !done; ) {
      let got = 0;
      for await (const m of await consumer.fetch({ max_messages: FETCH_BATCH, expires: 2_000 })) {
        got++;
        const seq = m.info.streamSequence;
        if (seq > endSeq || m.info.timestampNanos / 1e6 >= endMs) {
          done = true;
          break;
        }
        read.messages++;
        read.firstSeq ??= seq;
        read.lastSeq = seq;
        if (read.messages > MAX_RANGE_MESSAGES) throw new UnprocessableError(`the range holds more than ${MAX_RANGE_MESSAGES} messages: split it`, "unprocessable", undefined, "toSeq");
        const id = idOf(m, range.idFrom);
        if (id === undefined) read.withoutId++;
        else if (!seen.has(id)) {
          seen.add(id);
          read.ids.push(id);
        }
        if (seq >= endSeq) {
          done = true;
          break;
        }
      }
      if (got === 0) done = true;
    }
  } finally {
    await consumer.delete().catch(() => undefined);
  }
  return read;
}
