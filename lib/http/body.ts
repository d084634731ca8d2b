import type { IncomingMessage } from "node:http";
import { PayloadTooLargeError, ValidationError } from "@/lib/errors";

export const DEFAULT_BODY_LIMIT = Number(process.env.WEIR_MAX_BODY_BYTES ?? 1024 * 1024);

const utf8 = new TextDecoder("utf-8", { fatal: true, ignoreBOM: false });

function collect(req: IncomingMessage, limit: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size <= limit) return void chunks.push(chunk);
      // Stop keeping the body but let it drain, so the 413 reaches the client.
      req.off("data", onData);
      req.resume();
      reject(new PayloadTooLargeError(limit));
    };
    req.on("data", onData);
    req.once("end", () => resolve(chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, size)));
    req.once("error", reject);
  });
}

/**
 * Reads a request body up to `limit` bytes. Invalid UTF-8 is refused instead of
 * being replaced with U+FFFD, which would make different bodies hash alike.
 */
export async function readBody(req: IncomingMessage, limit = DEFAULT_BODY_LIMIT): Promise<string> {
  const declared = Number(req.headers["content-length"]);
  if (Number.isFinite(declared) && declared > limit) {
    req.resume();
    throw new PayloadTooLargeError(limit);
  }
  const buffer = await collect(req, limit);
  try {
    return utf8.decode(buffer);
  } catch {
    throw new ValidationError("request body is not valid UTF-8", undefined, "invalid_json");
  }
}
