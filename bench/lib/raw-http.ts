import net from "node:net";

/**
 * The open-loop generator's transport: keep-alive HTTP/1.1 POSTs written as prebuilt bytes on raw
 * sockets, one request in flight per socket, answers read by Content-Length (or chunked). It does
 * a fraction of node:http's work per request, and on a shared 2-core box every microsecond the
 * generator spends is taken from the server and PostgreSQL it measures.
 */
export interface RawPoolOptions {
  host: string;
  port: number;
  path: string;
  headers: Record<string, string>;
  sockets: number;
  timeoutMs: number;
}

/** Status code, or undefined for a transport error or a timeout. */
type Done = (status: number | undefined) => void;

interface Pending {
  body: string;
  done: Done;
}

const CRLF2 = Buffer.from("\r\n\r\n");

class Connection {
  private socket: net.Socket | undefined;
  private buffer: Buffer = Buffer.alloc(0);
  private current: Done | undefined;
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly pool: RawPool,
    private readonly options: RawPoolOptions,
  ) {}

  get idle(): boolean {
    return this.current === undefined;
  }

  send(request: Pending): void {
    this.current = request.done;
    if (!this.socket) this.connect();
    const body = Buffer.from(request.body);
    this.socket!.write(Buffer.concat([this.pool.head(body.length), body]));
    this.timer = setTimeout(() => this.fail(), this.options.timeoutMs);
  }

  private connect(): void {
    const socket = net.connect({ host: this.options.host, port: this.options.port, noDelay: true });
    socket.on("data", (chunk: Buffer) => this.read(chunk));
    socket.on("error", () => this.fail());
    socket.on("close", () => {
      if (this.socket === socket) this.fail();
    });
    this.socket = socket;
  }

  private read(chunk: Buffer): void {
    this.buffer = this.buffer.length === 0 ? chunk : Buffer.concat([this.buffer, chunk]);
    const end = this.buffer.indexOf(CRLF2);
    if (end < 0) return;
    const head = this.buffer.toString("latin1", 0, end);
    const status = Number(head.slice(9, 12));
    const length = /\r\ncontent-length: *(\d+)/i.exec(head);
    let total: number;
    if (length) total = end + 4 + Number(length[1]);
    else {
      // chunked: the answer ends with the last chunk
      const last = this.buffer.indexOf("\r\n0\r\n\r\n", end);
      if (last < 0) return;
      total = last + 7;
    }
    if (this.buffer.length < total) return;
    const closes = /\r\nconnection: *close/i.test(head);
    this.buffer = this.buffer.subarray(total);
    if (closes) this.drop();
    this.finish(status);
  }

  private fail(): void {
    this.drop();
    this.finish(undefined);
  }

  private drop(): void {
    const socket = this.socket;
    this.socket = undefined;
    this.buffer = Buffer.alloc(0);
    socket?.destroy();
  }

  private finish(status: number | undefined): void {
    clearTimeout(this.timer);
    const done = this.current;
    this.current = undefined;
    if (!done) return;
    done(status);
    this.pool.idle(this);
  }

  close(): void {
    clearTimeout(this.timer);
    this.current = undefined;
    this.drop();
  }
}

/** Up to `sockets` connections; requests past them wait in order, as in node:http's agent. */
export class RawPool {
  private readonly connections: Connection[] = [];
  private readonly free: Connection[] = [];
  private readonly queue: Pending[] = [];
  private queueHead = 0;
  private readonly prefix: string;

  constructor(private readonly options: RawPoolOptions) {
    const headers = Object.entries({ host: `${options.host}:${options.port}`, ...options.headers })
      .map(([name, value]) => `${name}: ${value}\r\n`)
      .join("");
    this.prefix = `POST ${options.path} HTTP/1.1\r\n${headers}content-length: `;
  }

  head(length: number): Buffer {
    return Buffer.from(`${this.prefix}${length}\r\n\r\n`, "latin1");
  }

  post(body: string, done: Done): void {
    const connection = this.free.pop() ?? this.open();
    if (connection) connection.send({ body, done });
    else this.queue.push({ body, done });
  }

  idle(connection: Connection): void {
    if (this.queueHead < this.queue.length) {
      const next = this.queue[this.queueHead]!;
      this.queue[this.queueHead++] = undefined as unknown as Pending;
      if (this.queueHead > 4096 && this.queueHead * 2 > this.queue.length) {
        this.queue.splice(0, this.queueHead);
        this.queueHead = 0;
      }
      connection.send(next);
    } else this.free.push(connection);
  }

  private open(): Connection | undefined {
    if (this.connections.length >= this.options.sockets) return undefined;
    const connection = new Connection(this, this.options);
    this.connections.push(connection);
    return connection;
  }

  close(): void {
    for (const connection of this.connections) connection.close();
  }
}
