import { fork, type ChildProcess } from "node:child_process";
import path from "node:path";
import http from "node:http";

const APP = path.resolve(import.meta.dirname, "weir-app.ts");

export interface NodeResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: any;
  ms: number;
}

/**
 * A weir API node in a child process of its own (test/faults/weir-app.ts), on
 * a store of the caller's choosing. The test notices when it dies: `exit`
 * records how, so "the process does not crash" is an assertion, not a hope.
 */
export class WeirNode {
  private child: ChildProcess | undefined;
  readonly stderr: string[] = [];
  exit: { code: number | null; signal: string | null } | undefined;
  port = 0;
  private readonly agent = new http.Agent({ keepAlive: true });

  constructor(
    private readonly env: Record<string, string>,
    readonly name = "weir",
  ) {}

  get url(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  async start(): Promise<void> {
    const child = fork(APP, [], {
      cwd: path.resolve(import.meta.dirname, "../.."),
      execArgv: ["--import", "tsx"],
      env: { ...process.env, NODE_ENV: "production", WEIR_CLEANUP_INTERVAL_MS: "3600000", ...this.env },
      stdio: ["ignore", "ignore", "pipe", "ipc"],
    });
    this.child = child;
    child.stderr!.setEncoding("utf8").on("data", (chunk: string) => {
      this.stderr.push(chunk);
      if (process.env.WEIR_FAULTS_VERBOSE) process.stderr.write(`[${this.name}] ${chunk}`);
    });
    child.on("exit", (code, signal) => (this.exit = { code, signal }));
    this.port = await new Promise<number>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`${this.name} did not start: ${this.stderr.join("")}`)), 60_000);
      child.once("message", (message: { port: number }) => {
        clearTimeout(timer);
        resolve(message.port);
      });
      child.once("exit", (code) => {
        clearTimeout(timer);
        reject(new Error(`${this.name} exited with ${code} at start: ${this.stderr.join("")}`));
      });
    });
  }

  /** One HTTP request; a connection-level failure or timeout resolves with status 0 (never a guess). */
  request(method: string, urlPath: string, body?: unknown, headers: Record<string, string> = {}, timeoutMs = 30_000): Promise<NodeResponse> {
    return httpRequest(this.agent, `${this.url}${urlPath}`, method, body, headers, timeoutMs);
  }

  /** Lines the node logged as unexpected request failures (500s). */
  internalErrors(): string[] {
    return this.stderr.join("").split("\n").filter((line) => /request .* failed:/.test(line));
  }

  async stop(): Promise<void> {
    this.agent.destroy();
    const child = this.child;
    if (!child || this.exit) return;
    await new Promise<void>((resolve) => {
      child.once("exit", () => resolve());
      child.kill("SIGKILL");
    });
  }
}

/** A JSON request over node:http; status 0 when the connection failed or timed out. */
export function httpRequest(
  agent: http.Agent,
  url: string,
  method: string,
  body?: unknown,
  headers: Record<string, string> = {},
  timeoutMs = 30_000,
): Promise<NodeResponse> {
  const started = performance.now();
  const text = body === undefined ? undefined : typeof body === "string" ? body : JSON.stringify(body);
  return new Promise((resolve) => {
    const fail = (message: string) =>
      resolve({ status: 0, headers: {}, body: { error: { code: "transport", message } }, ms: performance.now() - started });
    const req = http.request(url, { method, agent, headers: { "content-type": "application/json", ...headers }, timeout: timeoutMs }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (chunk: Buffer) => chunks.push(chunk));
      res.on("error", (err) => fail(err.message));
      res.on("end", () => {
        const raw = Buffer.concat(chunks).toString("utf8");
        let parsed: unknown = raw;
        try {
          parsed = JSON.parse(raw);
        } catch {
          // not JSON
        }
        resolve({ status: res.statusCode ?? 0, headers: res.headers, body: parsed, ms: performance.now() - started });
      });
    });
    req.on("timeout", () => req.destroy(new Error(`no answer within ${timeoutMs} ms`)));
    req.on("error", (err) => fail(err.message));
    req.end(text);
  });
}
