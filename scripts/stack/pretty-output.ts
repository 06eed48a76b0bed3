import { Transform } from 'node:stream';
import type { TransformCallback } from 'node:stream';
import { prettyFactory } from 'pino-pretty';

// concurrently writes "<prefix> <line>"; a service's line is a pino JSON object.
const PREFIXED_JSON = /^(.*?)(\{".*\})\s*$/;
// eslint-disable-next-line no-control-regex
const ANSI = /\x1b\[[0-9;]*m/g;
const ERROR_LEVEL = 50;

/** Options of {@link createPrettyOutput}. */
export interface PrettyOutputOptions {
  /** Colours (pino-pretty's, concurrently's prefixes): only when the target is a terminal. */
  color: boolean;
  /** One line per request answered (pino-http's); errors are shown either way. */
  requestLogs: boolean;
}

/** The stream, and what the banner waits for: the start-up burst to end. */
export interface PrettyOutput extends Transform {
  /** When it last wrote a line. */
  lastWriteAt(): number;
  /** The deployables (by prefix) whose `listening` line it has written: all they logged before it is out. */
  listening(): ReadonlySet<string>;
}

/**
 * A stream for concurrently's output that renders each service's JSON log line as one readable
 * line (time, level, message, fields) behind its prefix; a mail the gateway writes to its log (no
 * SMTP_URL) as its own lines, so a sign-in code stands on a line of its own; anything else as is.
 */
export function createPrettyOutput(options: PrettyOutputOptions, target: NodeJS.WritableStream = process.stdout): PrettyOutput {
  const pretty = prettyFactory({ colorize: options.color, translateTime: 'HH:MM:ss', ignore: 'pid,hostname,service', singleLine: true });
  let pending = '';
  let lastWrite = Date.now();
  const listening = new Set<string>();
  const stream = new Transform({
    transform(chunk: Buffer, _enc, done: TransformCallback) {
      pending += chunk.toString('utf8');
      const lines = pending.split('\n');
      pending = lines.pop() ?? '';
      const out = lines.map((line) => render(line)).join('');
      if (out) lastWrite = Date.now();
      done(null, out);
    },
    flush(done: TransformCallback) {
      done(null, pending ? render(pending) : '');
    },
  }) as PrettyOutput;
  stream.lastWriteAt = () => lastWrite;
  stream.listening = () => listening;

  function render(raw: string): string {
    const line = options.color ? raw : raw.replace(ANSI, '');
    const match = PREFIXED_JSON.exec(line);
    if (!match) return `${line}\n`;
    let entry: Record<string, unknown>;
    try {
      entry = JSON.parse(match[2]!) as Record<string, unknown>;
    } catch {
      return `${line}\n`;
    }
    const prefix = match[1]!;
    if (entry.msg === 'listening') listening.add(prefix.replace(/[[\]\s]/g, ''));
    if (!options.requestLogs && 'req' in entry && 'res' in entry && Number(entry.level) < ERROR_LEVEL) return '';
    const mail = entry.mail as { to?: string; subject?: string; text?: string } | undefined;
    if (mail?.text !== undefined) {
      const body = mail.text.split('\n').map((text) => `${prefix}  │ ${text}`);
      return [`${prefix}mail to ${mail.to} (no SMTP_URL, so it is shown here): ${mail.subject}`, ...body].join('\n') + '\n';
    }
    return `${prefix}${pretty(entry).trimEnd()}\n`;
  }
  stream.pipe(target);
  return stream;
}

/**
 * Resolves once the start-up burst is out: the `listening` line of each of `names` written (each
 * deployable hands its log lines on in batches, up to about half a second late), then nothing for
 * `quietMs` (the lines that follow listening: burger's first load, the gateway's price check).
 * Gives up waiting after `maxMs`: the banner is never held back for long.
 */
export async function quietened(output: PrettyOutput, names: readonly string[], quietMs: number, maxMs: number): Promise<void> {
  const deadline = Date.now() + maxMs;
  const waiting = () => names.some((name) => !output.listening().has(name)) || Date.now() - output.lastWriteAt() < quietMs;
  while (Date.now() < deadline && waiting()) await new Promise((resolve) => setTimeout(resolve, 50));
}
