import pino from 'pino';
import type { Logger } from './logger';

/** The levels a {@link JsonLineWriter} writes at. */
export type LineLevel = 'info' | 'warn' | 'error';

/**
 * Writes one log line whose own fields are already JSON (`"a":1,"b":{"c":"d"}`: not empty, no
 * braces around them) with a message.
 */
export type JsonLineWriter = (level: LineLevel, fields: string, msg: string) => void;

const S = pino.symbols;
// Not in pino's types, though in its symbols.
const msgPrefixSym = (pino.symbols as unknown as Record<string, symbol>).msgPrefixSym!;
type PinoInternals = pino.Logger & Record<symbol, unknown>;

/**
 * A writer of lines the caller serialised itself, for a line logged on every call (the gateway's
 * access line), where pino's generic serialisation (each key of each object looked at, each value
 * typed and stringified) was most of the line's cost. Through a pino logger of the default shape
 * the line is pino's byte for byte (`{"level":30`, its time, its bindings, the fields, the message,
 * its line end) and goes to the same destination, so it is batched with the others. Any other
 * logger, or a pino logger with a mixin, a log formatter, a nested key, a write hook, or a
 * destination that wants each line's metadata, gets the fields parsed back and logged the ordinary way.
 */
export function createJsonLineWriter(logger: Logger): JsonLineWriter {
  const p = logger as PinoInternals;
  const plain =
    typeof p[S.streamSym] === 'object' &&
    !p[S.mixinSym] &&
    !(p[S.formattersSym] as { log?: unknown } | undefined)?.log &&
    !p[S.nestedKeySym] &&
    !(p[S.hooksSym] as { streamWrite?: unknown } | undefined)?.streamWrite &&
    !(p[S.streamSym] as Record<symbol, unknown>)[S.needsMetadataGsym] &&
    !p[msgPrefixSym];
  if (!plain) return (level, fields, msg) => logger[level](JSON.parse(`{${fields}}`) as object, msg);
  const messageKey = p[S.messageKeySym] as string;
  // The tail after the fields of each message written so far: few distinct messages are logged.
  const tails = new Map<string, string>();
  return (level, fields, msg) => {
    if (!p.isLevelEnabled(level)) return;
    let tail = tails.get(msg);
    if (tail === undefined) tails.set(msg, (tail = `,${JSON.stringify(messageKey)}:${JSON.stringify(msg)}${p[S.endSym] as string}`));
    const head = (p[S.lsCacheSym] as Record<number, string>)[p.levels.values[level]!]!;
    const line = `${head}${(p[S.timeSym] as () => string)()}${p[S.chindingsSym] as string},${fields}${tail}`;
    (p[S.streamSym] as { write(line: string): void }).write(line);
  };
}
