/**
 * The calibration contender of bench/latency-open-loop.ts: reads the body and answers at once,
 * so what the generator measures against it is the generator's (and the kernel's) own tail.
 */
import http from "node:http";

const answer = '{"decision":"duplicate"}';
const server = http.createServer((req, res) => {
  req.resume();
  req.on("end", () => res.writeHead(200, { "content-type": "application/json", "content-length": answer.length }).end(answer));
});
server.keepAliveTimeout = 65_000;
server.listen(Number(process.env.PORT ?? 3200), process.env.HOST ?? "127.0.0.1");
process.once("SIGTERM", () => server.close(() => process.exit(0)));
