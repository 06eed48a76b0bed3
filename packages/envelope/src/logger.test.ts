import { spawn } from 'node:child_process';
import path from 'node:path';
import { createIsoTime } from './logger';

/** Runs a script that uses createLogger in a child process; resolves with its stdout lines and the ms each arrived after start. */
function runLogging(body: string): Promise<{ lines: { msg: string; atMs: number }[]; code: number | null }> {
  const script = `const { createLogger } = require(${JSON.stringify(path.join(__dirname, 'logger.ts'))});\nconst logger = createLogger({ service: 'test' });\n${body}`;
  const child = spawn(process.execPath, ['--import', 'tsx', '-e', script], { cwd: __dirname, stdio: ['ignore', 'pipe', 'inherit'] });
  const started = Date.now();
  const lines: { msg: string; atMs: number }[] = [];
  let buffer = '';
  child.stdout.on('data', (chunk: Buffer) => {
    buffer += chunk.toString();
    const parts = buffer.split('\n');
    buffer = parts.pop() ?? '';
    for (const line of parts) lines.push({ msg: (JSON.parse(line) as { msg: string }).msg, atMs: Date.now() - started });
  });
  return new Promise((resolve) => child.once('close', (code) => resolve({ lines, code })));
}

describe('createLogger', () => {
  it('writes a lone line within the periodic flush, while the process keeps running', async () => {
    const { lines, code } = await runLogging(`
      const loggedAt = Date.now();
      logger.info({}, 'lone');
      setTimeout(() => { logger.info({ waited: Date.now() - loggedAt }, 'still running'); process.exit(0); }, 1500);
    `);
    expect(code).toBe(0);
    expect(lines.map((l) => l.msg)).toEqual(['lone', 'still running']);
    // The lone line arrived well before the process wrote its second line and exited.
    expect((lines[1]?.atMs ?? 0) - (lines[0]?.atMs ?? 0)).toBeGreaterThan(700);
  }, 15_000);

  it('writes every buffered line when the process exits right after logging', async () => {
    const { lines, code } = await runLogging(`
      for (let i = 0; i < 3; i++) logger.info({ i }, 'line ' + i);
      process.exit(0);
    `);
    expect(code).toBe(0);
    expect(lines.map((l) => l.msg)).toEqual(['line 0', 'line 1', 'line 2']);
  }, 15_000);
});

describe('createIsoTime', () => {
  it.each([
    ['2026-11-22T05:30:00.005Z'],
    ['2026-11-22T05:30:00.050Z'],
    ['2026-11-22T05:30:00.999Z'],
    ['2026-11-22T05:30:01.000Z'],
    ['2026-12-31T23:59:59.999Z'],
    ['2027-01-01T00:00:00.000Z'],
  ])('formats %s as toISOString does, whichever second came before', (iso) => {
    let now = Date.parse('2026-11-22T05:30:00.000Z');
    const isoTime = createIsoTime(() => now);
    isoTime();
    now = Date.parse(iso);
    expect(isoTime()).toBe(`,"time":"${iso}"`);
    now += 1;
    expect(isoTime()).toBe(`,"time":"${new Date(now).toISOString()}"`);
  });

  it('gives pino the ISO time field of the current millisecond, formatted once per millisecond', () => {
    let now = Date.parse('2026-11-22T05:30:00.123Z');
    const isoTime = createIsoTime(() => now);
    const first = isoTime();
    expect(first).toBe(',"time":"2026-11-22T05:30:00.123Z"');
    expect(isoTime()).toBe(first);
    now += 1;
    expect(isoTime()).toBe(',"time":"2026-11-22T05:30:00.124Z"');
    now -= 1000;
    expect(isoTime()).toBe(',"time":"2026-11-22T05:29:59.124Z"');
  });
});
