import { Transform } from 'node:stream';
import type { TransformCallback } from 'node:stream';
import { prettyFactory } from 'pino-pretty';

// concurrently writes "<prefix> <line>"; a service's line is a pino JSON object.
const PREFIXED_JSON = /^(.*?)(\{".*\})\s*$/;

/**
 * A stream for concurrently's output that renders each service's JSON log line as one readable
 * line (time, level, message, fields) behind its prefix; anything else passes through as is.
 */
export function createPrettyOutput(target: NodeJS.WritableStream = process.stdout): Transform {
  const pretty = prettyFactory({ colorize: true, translateTime: 'HH:MM:ss', ignore: 'pid,hostname,service', singleLine: true });
  let pending = '';
  const stream = new Transform({
    transform(chunk: Buffer, _enc, done: TransformCallback) {
      pending += chunk.toString('utf8');
      const lines = pending.split('\n');
      pending = lines.pop() ?? '';
      done(null, lines.map((line) => render(line)).join(''));
    },
    flush(done: TransformCallback) {
      done(null, pending ? render(pending) : '');
    },
  });
  function render(line: string): string {
    const match = PREFIXED_JSON.exec(line);
    if (!match) return `${line}\n`;
    try {
      return `${match[1]}${pretty(JSON.parse(match[2]!)).trimEnd()}\n`;
    } catch {
      return `${line}\n`;
    }
  }
  stream.pipe(target);
  return stream;
}
