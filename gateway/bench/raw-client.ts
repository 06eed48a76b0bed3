import net from 'node:net';

/** What a finished request reports: its HTTP status, or 0 when the connection failed. */
export type Done = (status: number) => void;

const HEADER_END = Buffer.from('\r\n\r\n');
const CRLF = Buffer.from('\r\n');
const CONTENT_LENGTH = /\r\ncontent-length:\s*(\d+)/i;
const CHUNKED = /\r\ntransfer-encoding:\s*chunked/i;
/** A response not answered within this long fails, so a run cannot hang. */
const TIMEOUT_MS = 10_000;

/** Where a chunked body starting at `from` ends (after its last chunk and trailers), or -1 if not all here yet. */
function chunkedEnd(buffer: Buffer, from: number): number {
  let at = from;
  for (;;) {
    const lineEnd = buffer.indexOf(CRLF, at);
    if (lineEnd < 0) return -1;
    const size = Number.parseInt(buffer.toString('latin1', at, lineEnd).split(';')[0] as string, 16);
    if (Number.isNaN(size)) throw new Error('malformed chunk size');
    if (size === 0) {
      const end = buffer.indexOf(HEADER_END, lineEnd);
      // No trailers: the last-chunk line is followed directly by the blank line.
      if (buffer.indexOf(CRLF, lineEnd + 2) === lineEnd + 2) return lineEnd + 4;
      return end < 0 ? -1 : end + 4;
    }
    at = lineEnd + 2 + size + 2;
    if (at > buffer.length) return -1;
  }
}

/** One keep-alive connection carrying one request at a time. */
class Connection {
  private buffer: Buffer | undefined;
  /** Bytes of the whole response once its headers are read; -1 before, Infinity while chunked. */
  private need = -1;
  private bodyStart = 0;
  private status = 0;
  private done: Done | undefined;
  readonly socket: net.Socket;

  constructor(port: number, host: string, onIdle: (c: Connection) => void, onDead: (c: Connection) => void) {
    this.socket = net.connect(port, host);
    this.socket.setNoDelay(true);
    this.socket.setTimeout(TIMEOUT_MS, () => this.socket.destroy());
    this.socket.on('data', (chunk: Buffer) => {
      this.buffer = this.buffer ? Buffer.concat([this.buffer, chunk]) : chunk;
      let complete: boolean;
      try {
        complete = this.complete();
      } catch {
        // Unframed or extra bytes: this connection can no longer be read; the request fails.
        this.socket.destroy();
        return;
      }
      if (!complete) return;
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

  /**
   * Whether the buffered bytes hold the whole response: headers, then Content-Length bytes or
   * chunks up to the last. Throws when it cannot be framed, or more bytes came than it holds.
   */
  private complete(): boolean {
    const buffer = this.buffer as Buffer;
    if (this.need < 0) {
      const end = buffer.indexOf(HEADER_END);
      if (end < 0) return false;
      const head = buffer.toString('latin1', 0, end);
      this.status = Number(head.slice(9, 12));
      this.bodyStart = end + 4;
      const length = CONTENT_LENGTH.exec(head);
      if (length) this.need = this.bodyStart + Number(length[1]);
      else if (CHUNKED.test(head)) this.need = Number.POSITIVE_INFINITY;
      else if (this.status < 200 || this.status === 204 || this.status === 304) this.need = this.bodyStart;
      else throw new Error(`a ${this.status} response without Content-Length or chunks`);
    }
    if (this.need === Number.POSITIVE_INFINITY) {
      const end = chunkedEnd(buffer, this.bodyStart);
      if (end < 0) return false;
      this.need = end;
    }
    if (buffer.length > this.need) throw new Error('more bytes than the response holds');
    return buffer.length === this.need;
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
