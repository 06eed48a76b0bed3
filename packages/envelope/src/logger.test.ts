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

describe('createLogger at exit with standard output backed up', () => {
  it('writes every line still held when the process exits while earlier writes wait on a full pipe', async () => {
    // The reader starts late: the pipe fills with the burst, so sonic-boom's writes are pending at exit.
    const script = [
      `const { createLogger } = require(${JSON.stringify(path.join(__dirname, 'logger.ts'))});`,
      "const logger = createLogger({ service: 'test' });",
      "const pad = 'x'.repeat(200);",
      "for (let i = 0; i < 2000; i++) logger.info({ pad }, 'burst');",
      "for (let i = 0; i < 40; i++) logger.info({}, 'final ' + i);",
      'process.exit(0);',
    ].join('\n');
    const child = spawn(process.execPath, ['--import', 'tsx', '-e', script], { cwd: __dirname, stdio: ['ignore', 'pipe', 'inherit'] });
    child.stdout.pause();
    setTimeout(() => child.stdout.resume(), 500);
    let text = '';
    child.stdout.on('data', (chunk: Buffer) => (text += chunk.toString()));
    const code = await new Promise((resolve) => child.once('close', resolve));
    expect(code).toBe(0);
    const finals = text.split('\n').filter((line) => line.includes('"msg":"final ')).map((line) => (JSON.parse(line) as { msg: string }).msg);
    expect(finals).toEqual(Array.from({ length: 40 }, (_, i) => `final ${i}`));
  }, 20_000);
});

describe('createIsoTime', () => {
  it.each([
    ['a fractional millisecond', 1.5],
    ['a year before 0000', Date.parse('0000-01-01T00:00:00Z') - 1],
    ['a year after 9999', Date.parse('9999-12-31T23:59:59.999Z') + 1],
  ])('formats %s exactly as toISOString does', (_what, ms) => {
    const isoTime = createIsoTime(() => ms);
    expect(isoTime()).toBe(`,"time":"${new Date(ms).toISOString()}"`);
  });

  it.each([
    ['2026-11-22T05:30:00.005Z'],
    ['2026-11-22T05:30:00.050Z'],
    ['2026-11-22T05:30:00.999Z'],
    ['2026-11-22T05:30:01.000Z'],
    ['2026-12-31T23:59:59.999Z'],
    ['2027-01-01T00:00:00.000Z'],
    ['1969-12-31T23:59:59.999Z'],
    ['0000-01-01T00:00:00.000Z'],
    ['9999-12-31T23:59:59.999Z'],
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
