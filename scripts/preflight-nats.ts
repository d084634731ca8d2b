import { spawn, spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import type { NatsProbe } from "./preflight-plan";
import { freePort } from "./preflight-postgres";

/** A NATS server greets every connection with `INFO {...}`; JetStream servers say `"jetstream":true` there. */
export function probeNats(url: string, timeoutMs = 1000): Promise<NatsProbe> {
  const { hostname, port } = new URL(url.includes("://") ? url : `nats://${url}`);
  return new Promise((resolve) => {
    const socket = net.connect(Number(port || 4222), hostname);
    let greeting = "";
    const done = (probe: NatsProbe) => {
      socket.destroy();
      resolve(probe);
    };
    socket.setTimeout(timeoutMs, () => done("down"));
    socket.on("error", () => done("down"));
    socket.on("data", (chunk) => {
      greeting += chunk.toString("utf8");
      const end = greeting.indexOf("\r\n");
      if (end < 0) return;
      try {
        const info = JSON.parse(greeting.slice(0, end).replace(/^INFO\s+/, "")) as { jetstream?: boolean };
        done(info.jetstream ? "jetstream" : "no-jetstream");
      } catch {
        done("down");
      }
    });
  });
}

/** A program on the PATH, or where Debian (/usr/sbin) and Homebrew put it when the PATH leaves that out. */
export function findProgram(name: string): string | undefined {
  const found = spawnSync("sh", ["-c", `command -v ${name}`], { encoding: "utf8" }).stdout.trim();
  if (found) return found;
  return [`/usr/sbin/${name}`, `/usr/local/bin/${name}`, `/opt/homebrew/bin/${name}`].find((file) => existsSync(file));
}

export const natsBinary = () => findProgram("nats-server");

export interface RunningNats {
  url: string;
  stop(): Promise<void>;
}

/** nats-server with JetStream on a free loopback port, its store in a temp dir, for one run. */
export async function startNats(binary: string): Promise<RunningNats> {
  const dir = mkdtempSync(path.join(os.tmpdir(), "weir-test-nats-"));
  const port = await freePort();
  const child = spawn(binary, ["-a", "127.0.0.1", "-p", String(port), "-js", "-sd", dir], { stdio: ["ignore", "ignore", "pipe"] });
  let stderr = "";
  child.stderr.on("data", (chunk: Buffer) => (stderr = (stderr + chunk.toString()).slice(-2000)));
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill("SIGTERM");
      await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 5000))]);
    }
    rmSync(dir, { recursive: true, force: true });
  };
  const url = `127.0.0.1:${port}`;
  for (let waited = 0; waited < 10_000; waited += 100) {
    if ((await probeNats(url, 500)) === "jetstream") return { url, stop };
    if (child.exitCode !== null) break;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  await stop();
  throw new Error(`could not start ${binary} on port ${port}: ${stderr.trim() || "no JetStream within 10 s"}`);
}
