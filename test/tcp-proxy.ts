import net from "node:net";
import { ADMIN_URL } from "./pg-admin";

/**
 * A TCP proxy in front of PostgreSQL that a test can cut (close every
 * connection and refuse new ones), stall (stop forwarding) and restore, to
 * see what weir does when its store goes away without touching the shared
 * server other test files use.
 */
export class TcpProxy {
  private server: net.Server | undefined;
  private readonly sockets = new Set<net.Socket>();
  private stalled = false;
  port = 0;

  constructor(
    private readonly targetHost = "127.0.0.1",
    // The tests' own server: 5432, or the one the test command started.
    private readonly targetPort = Number(new URL(ADMIN_URL).port || 5432),
  ) {}

  async start(port = this.port): Promise<number> {
    this.server = net.createServer((client) => this.pipe(client));
    await new Promise<void>((resolve, reject) => {
      this.server!.once("error", reject);
      this.server!.listen(port, "127.0.0.1", resolve);
    });
    this.port = (this.server.address() as net.AddressInfo).port;
    return this.port;
  }

  private pipe(client: net.Socket): void {
    const upstream = net.connect(this.targetPort, this.targetHost);
    for (const socket of [client, upstream]) {
      this.sockets.add(socket);
      socket.on("close", () => this.sockets.delete(socket));
      socket.on("error", () => socket.destroy());
    }
    client.pipe(upstream);
    upstream.pipe(client);
    if (this.stalled) for (const socket of [client, upstream]) socket.pause();
    client.on("close", () => upstream.destroy());
    upstream.on("close", () => client.destroy());
  }

  /** Closes every connection and stops listening: the database looks down. */
  async cut(): Promise<void> {
    for (const socket of this.sockets) socket.destroy();
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
    this.server = undefined;
  }

  /** Connections stay open but nothing flows (bytes wait, none are lost): the database looks hung. */
  stall(on = true): void {
    this.stalled = on;
    for (const socket of this.sockets) {
      if (on) socket.pause();
      else socket.resume();
    }
  }

  url(database: string): string {
    return `postgres://postgres@127.0.0.1:${this.port}/${database}`;
  }
}
