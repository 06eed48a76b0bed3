import net from 'node:net';

/** What a finished request reports: its HTTP status, or 0 when the connection failed. */
export type Done = (status: number) => void;

const HEADER_END = Buffer.from('\r\n\r\n');
const CHUNKED_END = Buffer.from('\r\n0\r\n\r\n');
const CONTENT_LENGTH = /\r\ncontent-length:\s*(\d+)/i;
const CHUNKED = /\r\ntransfer-encoding:\s*chunked/i;

/** One keep-alive connection carrying one request at a time. */
class Connection {
  private buffer: Buffer | undefined;
  private need = -1;
  private status = 0;
  private done: Done | undefined;
  readonly socket: net.Socket;

  constructor(port: number, host: string, onIdle: (c: Connection) => void, onDead: (c: Connection) => void) {
    this.socket = net.connect(port, host);
    this.socket.setNoDelay(true);
    this.socket.on('data', (chunk: Buffer) => {
      this.buffer = this.buffer ? Buffer.concat([this.buffer, chunk]) : chunk;
      if (!this.complete()) return;
      const done = this.done;
      this.buffer = undefined;
      this.need = -1;
      this.done = undefined;
      onIdle(this);
      done?.(this.status);
    });
    const fail = (): void => {
      const done = this.done;
      this.done = undefined;
      onDead(this);
      done?.(0);
    };
    this.socket.on('error', fail);
    this.socket.on('close', fail);
  }

  send(request: Buffer, done: Done): void {
    this.done = done;
    this.socket.write(request);
  }

  /** Whether the buffered bytes hold the whole response: headers, then Content-Length bytes or the last chunk. */
  private complete(): boolean {
    const buffer = this.buffer as Buffer;
    if (this.need < 0) {
      const end = buffer.indexOf(HEADER_END);
      if (end < 0) return false;
      const head = buffer.toString('latin1', 0, end);
      this.status = Number(head.slice(9, 12));
      const length = CONTENT_LENGTH.exec(head);
      if (length) this.need = end + 4 + Number(length[1]);
      else if (CHUNKED.test(head)) this.need = Number.POSITIVE_INFINITY;
      else this.need = end + 4;
    }
    if (this.need === Number.POSITIVE_INFINITY) return buffer.indexOf(CHUNKED_END) >= 0;
    return buffer.length >= this.need;
  }
}

/**
 * A minimal HTTP/1.1 client for load generation: requests are prebuilt bytes, written on a
 * kept-alive connection that is idle (or a new one), and each response is read only as far as its
 * length. `http.request` costs the load generator about 200 µs of CPU a request on the bench
 * machine, on the same two cores as the servers it measures; this costs a fraction of that.
 */
export class RawHttpClient {
  private readonly idle: Connection[] = [];
  private readonly all = new Set<Connection>();

  constructor(private readonly port: number, private readonly host: string) {}

  /** The bytes of a GET of `path` with `headers`. */
  static get(path: string, host: string, headers: Record<string, string>): Buffer {
    const lines = [`GET ${path} HTTP/1.1`, `Host: ${host}`, ...Object.entries(headers).map(([k, v]) => `${k}: ${v}`)];
    return Buffer.from(`${lines.join('\r\n')}\r\n\r\n`, 'latin1');
  }

  send(request: Buffer, done: Done): void {
    const connection =
      this.idle.pop() ??
      new Connection(
        this.port,
        this.host,
        (c) => this.idle.push(c),
        (c) => this.forget(c),
      );
    this.all.add(connection);
    connection.send(request, done);
  }

  close(): void {
    for (const c of this.all) c.socket.destroy();
    this.all.clear();
    this.idle.length = 0;
  }

  private forget(c: Connection): void {
    this.all.delete(c);
    const at = this.idle.indexOf(c);
    if (at >= 0) this.idle.splice(at, 1);
  }
}
