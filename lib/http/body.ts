import type { IncomingMessage } from "node:http";
import { PayloadTooLargeError, ValidationError, WeirError } from "@/lib/errors";
import { setting } from "@/lib/config";

export const DEFAULT_BODY_LIMIT = setting("WEIR_MAX_BODY_BYTES");

/**
 * How long a body may take to arrive once weir reads it (WEIR_BODY_TIMEOUT_MS, 5 s). Node's own
 * requestTimeout is only checked every 30 s, so a caller sending a few bytes and stalling held
 * its slot for a minute; this deadline is a timer of the request's own, up to a quarter later at
 * random, so that stalled bodies let in together are not all cut (and reopened) at once.
 */
export function bodyTimeoutMsFromEnv(): number {
  return setting("WEIR_BODY_TIMEOUT_MS");
}

/** The body did not arrive in time: answered 408 and the connection closed (api-handler.ts). */
export class BodyTimeoutError extends WeirError {
  constructor(timeoutMs: number) {
    super(408, "body_timeout", `the request body did not arrive within ${timeoutMs} ms; send it whole with the headers`);
  }
}

const utf8 = new TextDecoder("utf-8", { fatal: true, ignoreBOM: false });

function collect(req: IncomingMessage, limit: number, timeoutMs: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const stop = () => {
      clearTimeout(timer);
      req.off("data", onData);
    };
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size <= limit) return void chunks.push(chunk);
      // Stop keeping the body but let it drain, so the 413 reaches the client.
      stop();
      req.resume();
      reject(new PayloadTooLargeError(limit));
    };
    const timer = setTimeout(
      () => {
        stop();
        reject(new BodyTimeoutError(timeoutMs));
      },
      timeoutMs * (1 + Math.random() / 4),
    );
    req.on("data", onData);
    req.once("end", () => {
      clearTimeout(timer);
      resolve(chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, size));
    });
    req.once("error", (err) => {
      clearTimeout(timer);
      reject(err);
    });
  });
}

/**
 * Reads a request body up to `limit` bytes, within `timeoutMs`. Invalid UTF-8 is refused instead
 * of being replaced with U+FFFD, which would make different bodies hash alike.
 */
export async function readBody(req: IncomingMessage, limit = DEFAULT_BODY_LIMIT, timeoutMs = bodyTimeoutMsFromEnv()): Promise<string> {
  const declared = Number(req.headers["content-length"]);
  if (Number.isFinite(declared) && declared > limit) {
    req.resume();
    throw new PayloadTooLargeError(limit);
  }
  const buffer = await collect(req, limit, timeoutMs);
  try {
    return utf8.decode(buffer);
  } catch {
    throw new ValidationError("request body is not valid UTF-8", undefined, "invalid_json");
  }
}
