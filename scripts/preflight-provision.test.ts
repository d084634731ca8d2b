import { execFileSync } from "node:child_process";
import { cpSync, existsSync, lstatSync, mkdtempSync, readdirSync, readlinkSync, rmSync } from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { probeNats } from "./preflight-nats";
import { embeddedBinaries, hydrateSymlinks, probeServer, startEmbeddedServer } from "./preflight-postgres";

const bin = embeddedBinaries();
const scratch = mkdtempSync(path.join(os.tmpdir(), "weir-preflight-test-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

describe("embedded PostgreSQL", () => {
  it("is shipped for this platform", () => {
    expect(bin).toBeDefined();
  });

  it("needs its library links, which npm may not have made, and gets them back", () => {
    const pkg = path.join(scratch, "pkg");
    cpSync(path.resolve(bin!, "../.."), pkg, { recursive: true, verbatimSymlinks: true });
    const lib = path.join(pkg, "native", "lib");
    // An npm tarball carries no symlinks: remove them as a fresh install would lack them.
    for (const name of readdirSync(lib)) if (lstatSync(path.join(lib, name)).isSymbolicLink()) rmSync(path.join(lib, name));
    expect(() => execFileSync(path.join(pkg, "native", "bin", "initdb"), ["--version"], { stdio: "pipe" })).toThrow(/cannot open shared object/);
    hydrateSymlinks(pkg);
    hydrateSymlinks(pkg); // a second run finds them there
    expect(readlinkSync(path.join(lib, "libpq.so.5"))).toBe("libpq.so.5.18");
    expect(execFileSync(path.join(pkg, "native", "bin", "initdb"), ["--version"]).toString()).toMatch(/^initdb \(PostgreSQL\) \d+/);
  });

  it("starts a private server that the suites can use, and stop() removes every trace", async () => {
    const server = await startEmbeddedServer(bin!);
    expect(server.version).toMatch(/^PostgreSQL 1[7-9]/);
    expect((await probeServer(server.url)).answer).toBe("usable");
    server.stop();
    expect((await probeServer(server.url)).answer).toBe("down");
    expect(existsSync(server.dir)).toBe(false);
  }, 60_000);
});

describe("probes", () => {
  it("tells a server that refuses us from one that is down", async () => {
    expect((await probeServer("postgres://postgres@127.0.0.1:1/postgres")).answer).toBe("down");
    const admin = process.env.WEIR_TEST_ADMIN_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";
    const url = new URL(admin);
    url.pathname = "/weir_no_such_database";
    const refused = await probeServer(url.toString());
    expect(refused).toMatchObject({ answer: "unusable" });
    expect(refused.detail).toMatch(/does not exist/);
  });

  it("finds JetStream in a NATS server's greeting", async () => {
    // A fake server that greets as NATS does: the suite needs no NATS of its own for this.
    const greeter = async (info: object) => {
      const server = net.createServer((socket) => {
        const line = `INFO ${JSON.stringify(info)}\r\n`;
        socket.write(line.slice(0, 10)); // the greeting may come in pieces
        setTimeout(() => socket.end(line.slice(10)), 20);
      });
      await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
      return { url: `127.0.0.1:${(server.address() as net.AddressInfo).port}`, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
    };
    const jetstream = await greeter({ server_id: "x", version: "2.10.0", jetstream: true });
    expect(await probeNats(jetstream.url)).toBe("jetstream");
    expect(await probeNats(`nats://${jetstream.url}`)).toBe("jetstream");
    await jetstream.close();
    const plain = await greeter({ server_id: "y", jetstream: false });
    expect(await probeNats(plain.url)).toBe("no-jetstream");
    await plain.close();
    expect(await probeNats(plain.url)).toBe("down");
  });
});
