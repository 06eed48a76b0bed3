import type { IncomingHttpHeaders } from 'node:http';
import { Pool } from 'undici';
import type { Dispatcher } from 'undici';
import { AppError } from '@tollgate/envelope/core';
import type { Logger } from '@tollgate/envelope';
import type { ApiCall } from './api-call';
import { clientHeaders } from './forwarded-headers';
import { WaitingLine } from './waiting-line';
import type { InLine } from './waiting-line';

/** What the forwarder to one service needs. */
export interface UpstreamDeps {
  api: string;
  /** The service's base URL; its path, if any, is put before each call's. */
  target: string;
  /** Idle time (ms) without a byte from the service, or waiting for a free connection, before 504. */
  timeoutMs: number;
  maxSockets: number;
  /** Whether the service's `Set-Cookie` reaches the client (the API's `proxy.forward_set_cookie`). */
  forwardSetCookie: boolean;
  logger: Logger;
}

/** Sends admitted calls to one service and streams its answers back. */
export interface Upstream {
  /** Sends `call` as `path` (its path and query after `/{api}`) with the service's `headers`. */
  forward(call: ApiCall, path: string, headers: Record<string, string | string[]>): void;
  /** Takes no more calls and closes the connections once the calls sent are answered (a reload changed or removed the API). */
  close(): Promise<void>;
}

const QUEUE_TIMEOUT = 'TOLLGATE_UPSTREAM_QUEUE_TIMEOUT';
// A call waits for a connection at most this many UPSTREAM_TIMEOUT_MS in all, however the line moves.
const MAX_WAIT_TIMEOUTS = 4;
// The service said nothing in time: connecting, before its headers (a body that stops mid-way cuts the client instead).
const TIMED_OUT = new Set(['UND_ERR_HEADERS_TIMEOUT', 'UND_ERR_CONNECT_TIMEOUT', 'ETIMEDOUT', QUEUE_TIMEOUT]);
// A kept-alive socket the service closed fails like this before any byte of the answer.
const STALE_SOCKET = new Set(['UND_ERR_SOCKET', 'ECONNRESET', 'EPIPE', 'ECONNABORTED']);

// Answers whose headers came from the service alone, flushed once the chunk that brought them is parsed.
let headersOnly: Forward[] = [];
function flushHeadersOnly(): void {
  const started = headersOnly;
  headersOnly = [];
  for (const forward of started) forward.flushHeaders();
}

/**
 * One call on its way to the service and back: undici's handler for it. The service's answer is
 * streamed to the client as it comes, with backpressure both ways. Node sends the headers with the
 * first write, so a small answer (headers, body and end parsed from one read) leaves in one write;
 * headers the service sent alone reach the client at once, as the service meant.
 */
class Forward implements Dispatcher.DispatchHandler, InLine {
  controller: Dispatcher.DispatchController | undefined = undefined;
  /** The request was written to a socket. */
  started = false;
  /** The service's headers came (the client is being answered). */
  answered = false;
  retried = false;
  /** The client left, or the call waited too long for a connection: the request is not to be sent. */
  dropped = false;
  queuedAt = performance.now();
  /** When it was handed to the pool (the usage stream's upstream latency starts here). */
  sentAt = this.queuedAt;
  /** Some of the body was written (and the headers with it). */
  private wrote = false;
  lineNext: InLine | undefined = undefined;
  linePrev: InLine | undefined = undefined;
  inLine = false;

  constructor(
    readonly upstream: ServiceForwarder,
    readonly call: ApiCall,
    readonly options: Dispatcher.DispatchOptions,
  ) {}

  /** The client left: the service request is abandoned (or never sent). */
  cancel(): void {
    this.dropped = true;
    if (this.controller && !this.controller.aborted) this.controller.abort(new Error('the client left'));
  }

  onRequestStart(controller: Dispatcher.DispatchController): void {
    this.controller = controller;
    this.started = true;
    this.upstream.starts += 1;
    this.upstream.waiting.remove(this);
    if (this.dropped) controller.abort(new Error('the call was given up before a connection came free'));
  }

  onResponseStart(controller: Dispatcher.DispatchController, statusCode: number, headers: IncomingHttpHeaders): void {
    const { call } = this;
    if (call.gone) {
      controller.abort(new Error('the client left'));
      return;
    }
    call.upstreamMs = performance.now() - this.sentAt;
    // The service's own failure is not charged; its limit headers then read without the call.
    if (statusCode >= 500) call.refund();
    try {
      call.res.writeHead(statusCode, clientHeaders(headers, this.upstream.forwardSetCookie, call.headers));
    } catch (err) {
      // A header Node will not send (a service's malformed value): the call fails as unreachable, 502.
      controller.abort(err as Error);
      return;
    }
    this.answered = true;
    if (headersOnly.push(this) === 1) queueMicrotask(flushHeadersOnly);
  }

  /** The service's headers came without the body: the client gets them now. */
  flushHeaders(): void {
    const { res } = this.call;
    if (!this.wrote && !res.destroyed) res.flushHeaders();
  }

  onResponseData(controller: Dispatcher.DispatchController, chunk: Buffer): void {
    this.wrote = true;
    this.call.bytes += chunk.length;
    if (!this.call.res.write(chunk)) {
      controller.pause();
      this.call.res.once('drain', () => controller.resume());
    }
  }

  onResponseEnd(): void {
    this.wrote = true;
    this.call.res.end();
  }

  onResponseError(_controller: Dispatcher.DispatchController | undefined, err: Error & { code?: string }): void {
    const { call, upstream } = this;
    upstream.waiting.remove(this);
    // A call the client left was given back when it left; one given up in the queue, when it was.
    if (this.dropped) return;
    if (this.answered) {
      // Part of the answer is with the client: it was served, so no refund; its connection is cut, not left hanging.
      if (!call.res.writableFinished && !call.res.destroyed) {
        upstream.logger.warn({ err: err.message, api: upstream.api, request_id: call.requestId }, 'service connection failed mid-answer; the client connection is cut');
        call.res.destroy();
      }
      return;
    }
    // A GET or HEAD whose kept-alive socket the service had closed goes once more on a fresh one.
    const method = this.options.method;
    if (!this.retried && this.started && (method === 'GET' || method === 'HEAD') && STALE_SOCKET.has(err.code ?? '') && !call.gone) {
      this.retried = true;
      this.started = false;
      this.controller = undefined;
      upstream.dispatch(this);
      return;
    }
    upstream.failed(this, err);
  }
}

/** The forwarder of one service: an undici pool with keep-alive, and the queue's deadline. */
class ServiceForwarder implements Upstream {
  readonly api: string;
  readonly logger: Logger;
  readonly forwardSetCookie: boolean;
  private readonly pool: Pool;
  private readonly basePath: string;
  private readonly timeoutMs: number;
  // Calls sent and not yet on a socket, oldest first: each leaves as it gets one, so a finished call is not kept.
  readonly waiting = new WaitingLine<Forward>();
  /** Requests written to a socket so far: the line moves while this grows (a count, not a time, on the call path). */
  starts = 0;
  // What the sweep saw of `starts`, and when it last saw it grow: when a connection last came free.
  private startsSeen = 0;
  private movedAt = performance.now();
  private readonly sweeper: NodeJS.Timeout;

  constructor(deps: UpstreamDeps) {
    this.api = deps.api;
    this.logger = deps.logger;
    this.forwardSetCookie = deps.forwardSetCookie;
    this.timeoutMs = deps.timeoutMs;
    const url = new URL(deps.target);
    this.basePath = url.pathname.replace(/\/+$/, '');
    this.pool = new Pool(url.origin, {
      connections: deps.maxSockets,
      pipelining: 1,
      connectTimeout: deps.timeoutMs,
      headersTimeout: deps.timeoutMs,
      bodyTimeout: deps.timeoutMs,
    });
    // Idle keep-alive sockets are unref'd by undici, and so is this timer: neither holds a stopping process.
    this.sweeper = setInterval(() => this.sweep(), Math.min(1_000, Math.max(50, deps.timeoutMs / 4)));
    this.sweeper.unref();
  }

  async close(): Promise<void> {
    await this.pool.close();
    clearInterval(this.sweeper);
  }

  forward(call: ApiCall, path: string, headers: Record<string, string | string[]>): void {
    // `reset: false`: a HEAD keeps its connection, as with Node's agent (undici would close it, and say so to the service).
    const forward = new Forward(this, call, { method: call.req.method as Dispatcher.HttpMethod, path: this.basePath + path, headers, reset: false });
    call.inFlight = forward;
    this.dispatch(forward);
  }

  dispatch(forward: Forward): void {
    forward.queuedAt = performance.now();
    this.waiting.push(forward);
    this.pool.dispatch(forward.options, forward);
  }

  /** The service could not be asked or did not answer: the call is given back and answered 502 or 504. */
  failed(forward: Forward, err: Error & { code?: string }): void {
    const { call } = forward;
    call.refund();
    const code = err.code ?? '';
    call.fail(
      TIMED_OUT.has(code)
        ? new AppError('UPSTREAM_TIMEOUT', `the ${this.api} service did not answer in time; the call was not charged`, { cause: err, details: { reason: code === QUEUE_TIMEOUT ? 'no free connection' : 'no answer' } })
        : new AppError('UPSTREAM_UNAVAILABLE', `the ${this.api} service is unreachable; the call was not charged`, { cause: err, details: { reason: err.code ?? err.message } }),
    );
  }

  /**
   * Ends the calls waiting for a connection when none has come free for the timeout (the service
   * holds every one), or when one has waited {@link MAX_WAIT_TIMEOUTS} timeouts in all, without a
   * timer per call. A line that moves is not refused: a service slowed by load, answering steadily,
   * serves the back of its line too (issue 35: a call was refused once it had waited the timeout,
   * however often a connection came free for the calls before it). The verdict waits one turn of
   * the event loop, as the store guard's does: timers run before the loop reads its sockets, and
   * after a stall of this process an answer already there frees its connection first.
   */
  private sweep(): void {
    if (this.starts !== this.startsSeen) {
      this.startsSeen = this.starts;
      this.movedAt = performance.now();
    }
    if (this.waiting.first()) setImmediate(() => this.expire());
  }

  private expire(): void {
    const now = performance.now();
    if (this.starts !== this.startsSeen) {
      this.startsSeen = this.starts;
      this.movedAt = now;
    }
    for (let forward = this.waiting.first(); forward; forward = this.waiting.first()) {
      const waited = now - forward.queuedAt;
      const stuck = now - Math.max(forward.queuedAt, this.movedAt);
      // Oldest first: the rest waited less, and the line stopped for them no longer.
      if (stuck <= this.timeoutMs && waited <= this.timeoutMs * MAX_WAIT_TIMEOUTS) break;
      this.waiting.remove(forward);
      if (forward.dropped || forward.call.gone) continue;
      forward.dropped = true;
      const why = stuck > this.timeoutMs ? `no connection to the ${this.api} service came free within ${Math.round(stuck)} ms` : `the call waited ${Math.round(waited)} ms for a connection to the ${this.api} service`;
      this.failed(forward, Object.assign(new Error(why), { code: QUEUE_TIMEOUT }));
    }
  }
}

/** The forwarder to one service (see {@link Forward} and {@link ServiceForwarder}). */
export function createUpstream(deps: UpstreamDeps): Upstream {
  return new ServiceForwarder(deps);
}
