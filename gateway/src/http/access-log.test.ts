import fc from 'fast-check';
import { createLogger, redactUrl } from '@tollgate/envelope';
import type { Logger } from '@tollgate/envelope';
import { writeAccessLog } from './access-log';
import type { AccessLogEntry } from './access-log';

// The access line is serialised by hand; it must be the line pino wrote for the same fields.

// The clock stands still, so two loggers write the same time.
beforeAll(() => jest.useFakeTimers({ now: Date.parse('2026-11-25T12:00:00.123Z') }));
afterAll(() => jest.useRealTimers());

/** The gateway's logger (pino, createLogger) writing into `lines`. */
function capturing(level = 'info', lines: string[] = []): { logger: ReturnType<typeof createLogger>; lines: string[] } {
  const logger = createLogger({ service: 'gateway', level, destination: { write: (line: string) => void lines.push(line) } });
  return { logger, lines };
}

/** The line as pino serialised it before: the same object, logged the ordinary way. */
function pinoLine(logger: Logger, entry: AccessLogEntry): void {
  const line = { request_id: entry.requestId, req: { method: entry.method, url: redactUrl(entry.url) }, res: { status: entry.status }, responseTime: entry.durationMs };
  const msg = entry.finished ? 'request completed' : 'request aborted';
  if (entry.status >= 500) logger.error(line, msg);
  else if (entry.status >= 400) logger.warn(line, msg);
  else logger.info(line, msg);
}

const entries = fc.record({
  requestId: fc.oneof(fc.uuid(), fc.stringMatching(/^[A-Za-z0-9._:-]{1,128}$/)),
  method: fc.constantFrom('GET', 'HEAD', 'OPTIONS', 'POST', 'M-SEARCH'),
  url: fc.oneof(fc.string({ unit: 'binary' }), fc.webUrl({ withQueryParameters: true }).map((u) => new URL(u).pathname + new URL(u).search), fc.constant('/token/v1/prices?key=tg_x&code=1')),
  status: fc.integer({ min: 100, max: 599 }),
  durationMs: fc.nat({ max: 600_000 }),
  finished: fc.boolean(),
});

describe('writeAccessLog', () => {
  it('when any call is logged, then its line is the one pino writes for the same fields: same bytes, same level', () => {
    fc.assert(
      fc.property(entries, (entry) => {
        const hand = capturing();
        const generic = capturing();
        writeAccessLog(hand.logger, entry);
        pinoLine(generic.logger, entry);
        expect(hand.lines).toEqual(generic.lines);
        expect(hand.lines).toHaveLength(1);
      }),
      { numRuns: 500 },
    );
  });

  it('when the logger is a child with bindings, then they are on the line as pino puts them', () => {
    const entry = { requestId: 'r-1', method: 'GET', url: '/burger/v1/index?key=x', status: 200, durationMs: 3, finished: true };
    const hand = capturing();
    const generic = capturing();
    writeAccessLog(hand.logger.child({ worker: 2 }), entry);
    pinoLine(generic.logger.child({ worker: 2 }), entry);
    expect(hand.lines).toEqual(generic.lines);
    expect(JSON.parse(hand.lines[0]!)).toMatchObject({ service: 'gateway', worker: 2, req: { url: '/burger/v1/index?key=[redacted]' } });
  });

  it('when the logger is set above a line’s level, then that line is not written, and the ones at or above it are', () => {
    const { logger, lines } = capturing('warn');
    const base = { requestId: 'r', method: 'GET', url: '/token/v1/x', durationMs: 1, finished: true };
    writeAccessLog(logger, { ...base, status: 200 });
    writeAccessLog(logger, { ...base, status: 429 });
    writeAccessLog(logger, { ...base, status: 502 });
    expect(lines.map((line) => (JSON.parse(line) as { level: number }).level)).toEqual([40, 50]);
  });

  it('when the logger is not pino, then it is given the same fields and message the ordinary way', () => {
    const logged: [string, object, string | undefined][] = [];
    const logger: Logger = { info: (obj, msg) => void logged.push(['info', obj, msg]), warn: (obj, msg) => void logged.push(['warn', obj, msg]), error: (obj, msg) => void logged.push(['error', obj, msg]) };
    writeAccessLog(logger, { requestId: 'r', method: 'GET', url: '/token/v1/x?"q"=1', status: 404, durationMs: 7, finished: false });
    expect(logged).toEqual([['warn', { request_id: 'r', req: { method: 'GET', url: '/token/v1/x?"q"=1' }, res: { status: 404 }, responseTime: 7 }, 'request aborted']]);
  });
});
