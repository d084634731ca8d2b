/**
 * The HTTP side both baseline check servers share: node:http, the body read whole, one JSON answer
 * per request (400 for a body that is not JSON, 503 for a database error), /api/health, and a clean
 * stop on SIGTERM. What differs between them is only `check`: the body in, the answer out.
 * Env: PORT (3100), HOST (127.0.0.1).
 */
import http from "node:http";
import type pg from "pg";

function send(res: http.ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { "content-type": "application/json", "content-length": Buffer.byteLength(text) });
  res.end(text);
}

export function serveChecks(pool: pg.Pool, check: (body: string) => Promise<unknown>): void {
  const server = http.createServer((req, res) => {
    if (req.url === "/api/health") return send(res, 200, { status: "ok" });
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      check(Buffer.concat(chunks).toString("utf8")).then(
        (body) => send(res, 200, body),
        (err: Error) => send(res, err instanceof SyntaxError ? 400 : 503, { error: { message: err.message } }),
      );
    });
  });
  server.keepAliveTimeout = 65_000;
  server.listen(Number(process.env.PORT ?? 3100), process.env.HOST ?? "127.0.0.1");
  process.once("SIGTERM", () => {
    server.close();
    void pool.end().then(() => process.exit(0));
  });
}
