import type { Duplex } from "node:stream";
import { errorBody } from "./respond";

/**
 * Requests Node's HTTP parser refuses before weir sees them (a URL or headers
 * over its 16 KiB limit, malformed HTTP, a request that took too long to
 * arrive) still get the API's JSON error body instead of Node's bare status
 * line. Attach with server.on("clientError", answerClientError).
 */
export function answerClientError(err: Error & { code?: string }, socket: Duplex): void {
  if (err.code === "ECONNRESET" || !socket.writable) return void socket.destroy();
  const [status, reason, message] =
    err.code === "HPE_HEADER_OVERFLOW"
      ? [431, "Request Header Fields Too Large", "the request line and headers exceed 16 KiB; send long ids in the body"]
      : err.code === "ERR_HTTP_REQUEST_TIMEOUT"
        ? [408, "Request Timeout", "the request did not arrive in time"]
        : [400, "Bad Request", "malformed HTTP request"];
  const body = JSON.stringify(errorBody("invalid_request", message));
  socket.end(
    `HTTP/1.1 ${status} ${reason}\r\ncontent-type: application/json; charset=utf-8\r\ncontent-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n${body}`,
  );
}
