import { PassThrough } from 'node:stream';
import { createPrettyOutput } from '../../scripts/stack/pretty-output';
import type { PrettyOutputOptions } from '../../scripts/stack/pretty-output';

// What `npm start` prints of its deployables' JSON log lines (scripts/stack/pretty-output.ts).
async function rendered(lines: string[], options: PrettyOutputOptions): Promise<string> {
  const sink = new PassThrough();
  let text = '';
  sink.on('data', (chunk: Buffer) => (text += chunk.toString()));
  const output = createPrettyOutput(options, sink);
  for (const line of lines) output.write(`${line}\n`);
  output.end();
  await new Promise((resolve) => sink.on('end', resolve));
  return text;
}

const json = (entry: object) => JSON.stringify({ level: 30, time: '2026-11-28T10:00:00.000Z', service: 'gateway', ...entry });
const REQUEST = `[gateway] ${json({ req: { method: 'GET', url: '/burger/v1/meta' }, res: { status: 200 }, msg: 'request completed' })}`;
const FAILED = `[gateway] ${JSON.stringify({ level: 50, req: { method: 'GET', url: '/x' }, res: { status: 500 }, msg: 'request errored' })}`;
const MAIL = `[gateway] ${json({ mail: { to: 'ada@example.com', subject: 'Your Tollgate sign-in code', text: 'Your Tollgate sign-in code:\n\n    123456\n\nThe code works once.' }, msg: 'mail to ada@example.com written here (no SMTP_URL): Your Tollgate sign-in code' })}`;

describe('the stack’s output', () => {
  it('when the gateway writes a mail to its log, then it is shown as lines of its own, the code alone on one', async () => {
    const text = await rendered([MAIL], { color: false, requestLogs: true });
    expect(text.split('\n')).toEqual([
      '[gateway] mail to ada@example.com (no SMTP_URL, so it is shown here): Your Tollgate sign-in code',
      '[gateway]   │ Your Tollgate sign-in code:',
      '[gateway]   │ ',
      '[gateway]   │     123456',
      '[gateway]   │ ',
      '[gateway]   │ The code works once.',
      '',
    ]);
  });

  it.each([
    [true, 1],
    [false, 0],
  ])('when request logs are %s, then a served request shows %i line, and a failed one shows either way', async (requestLogs, served) => {
    const text = await rendered([REQUEST, FAILED], { color: false, requestLogs });
    expect(text.match(/request completed/g) ?? []).toHaveLength(served);
    expect(text).toContain('request errored');
  });

  it('when colour is off (not a terminal), then no escape code is written, even in a prefix coloured upstream', async () => {
    const coloured = `\x1b[35m[gateway]\x1b[39m ${json({ msg: 'listening', port: 8080 })}`;
    const plain = await rendered([coloured, 'a plain line'], { color: false, requestLogs: true });
    expect(plain).not.toContain('\x1b[');
    expect(plain).toMatch(/^\[gateway\] \[\d\d:\d\d:\d\d\] INFO: listening \{"port":8080\}\na plain line\n$/);
    expect(await rendered([coloured], { color: true, requestLogs: true })).toContain('\x1b[');
  });
});
