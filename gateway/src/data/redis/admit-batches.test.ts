import { StoreError } from '../stores';
import { createAdmitBatches } from './admit-batches';
import type { BatchCommand, BatchedCall } from './admit-batches';
import { createStoreGuard } from './store-guard';

type Reply = string;
const nextTurn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

/** A command that answers each call with its first argument and a mark, and records what it was sent. */
function echoCommand(sent: (string | number)[][], mark: string): BatchCommand<Reply> {
  return async (...args) => {
    sent.push(args);
    const numKeys = Number(args[0]);
    const calls = numKeys / 2;
    return Array.from({ length: calls }, (_, i) => `${mark}:${String(args[1 + numKeys + i])}`);
  };
}

/** A call of two keys and one argument; its outcome lands in `outcomes`. */
function call(name: string, outcomes: Map<string, string>, givenUp: string[] = []): BatchedCall<Reply> {
  return {
    keys: [`{${name}}:a`, `{${name}}:b`],
    args: [name],
    settle: (error, reply) => outcomes.set(name, error ? `error: ${error.message}` : String(reply)),
    givenUp: () => givenUp.push(name),
  };
}

const guard = (timeoutMs = 1_000) => createStoreGuard({ timeoutMs, connected: () => true });
const sendingNow = (send: () => void): void => send();

describe('admission batches', () => {
  it('when calls of one command and group arrive in one turn, then one command carries them, in order, and each gets its own reply', async () => {
    const sent: (string | number)[][] = [];
    const add = createAdmitBatches({ guard: guard(), sending: sendingNow, maxCalls: 10 });
    const outcomes = new Map<string, string>();
    const command = echoCommand(sent, 'x');
    for (const name of ['c1', 'c2', 'c3']) add(command, '', call(name, outcomes));
    expect(sent).toEqual([]);
    await nextTurn();
    await nextTurn();
    expect(sent).toEqual([[6, '{c1}:a', '{c1}:b', '{c2}:a', '{c2}:b', '{c3}:a', '{c3}:b', 'c1', 'c2', 'c3']]);
    expect([...outcomes]).toEqual([['c1', 'x:c1'], ['c2', 'x:c2'], ['c3', 'x:c3']]);
  });

  it.each<[string, string[], string[], number, number[]]>([
    ['two groups', ['g1', 'g2', 'g1'], ['x', 'x', 'x'], 10, [2, 1]],
    ['two commands', ['', '', ''], ['x', 'y', 'x'], 10, [2, 1]],
    ['more calls than a batch carries', ['', '', '', '', ''], ['x', 'x', 'x', 'x', 'x'], 2, [2, 2, 1]],
  ])('when a turn brings %s, then they travel apart', async (_case, groups, commands, maxCalls, callsPerCommand) => {
    const sent: (string | number)[][] = [];
    const byMark = new Map(['x', 'y'].map((mark) => [mark, echoCommand(sent, mark)]));
    const add = createAdmitBatches({ guard: guard(), sending: sendingNow, maxCalls });
    const outcomes = new Map<string, string>();
    groups.forEach((group, i) => add(byMark.get(commands[i]!)!, group, call(`c${i}`, outcomes)));
    await nextTurn();
    await nextTurn();
    expect(sent.map((args) => Number(args[0]) / 2).sort().reverse()).toEqual(callsPerCommand);
    expect(groups.map((_, i) => outcomes.get(`c${i}`))).toEqual(commands.map((mark, i) => `${mark}:c${i}`));
  });

  it('when calls come in two turns, then each turn sends its own command', async () => {
    const sent: (string | number)[][] = [];
    const add = createAdmitBatches({ guard: guard(), sending: sendingNow, maxCalls: 10 });
    const outcomes = new Map<string, string>();
    const command = echoCommand(sent, 'x');
    add(command, '', call('c1', outcomes));
    await nextTurn();
    add(command, '', call('c2', outcomes));
    await nextTurn();
    await nextTurn();
    expect(sent.map((args) => args.slice(3))).toEqual([['c1'], ['c2']]);
  });

  it.each<[string, BatchCommand<Reply>, { timeoutMs?: number; connected?: boolean }, RegExp, string[]]>([
    ['the store never answers', () => new Promise<Reply[]>(() => undefined), { timeoutMs: 20 }, /^quota store admit failed: no answer within \d+ ms$/, ['c1', 'c2']],
    // A script is no transaction: the calls before the error may be charged.
    ['Redis answers the script with an error', () => Promise.reject(Object.assign(new Error('ERR script failed'), { name: 'ReplyError' })), {}, /^quota store admit failed: ERR script failed$/, ['c1', 'c2']],
    ['fewer replies than calls come back', () => Promise.resolve(['only one']), {}, /^quota store admit failed: 1 replies for 2 calls$/, ['c1', 'c2']],
    // Never sent: nothing to give back.
    ['the store is down', () => Promise.resolve(['a', 'b']), { connected: false }, /^quota store admit failed: the store is unavailable$/, []],
  ])('when %s, then every call in the batch is told the store failed, and those that may be charged are given back', async (_case, command, options, told, givenBack) => {
    const add = createAdmitBatches({ guard: createStoreGuard({ timeoutMs: options.timeoutMs ?? 1_000, connected: () => options.connected ?? true }), sending: sendingNow, maxCalls: 10 });
    const givenUp: string[] = [];
    const errors = await Promise.all(
      ['c1', 'c2'].map(
        (name) =>
          new Promise<Error | undefined>((resolve) => {
            add(command, '', { keys: [`{${name}}:a`, `{${name}}:b`], args: [name], settle: (error) => resolve(error), givenUp: () => givenUp.push(name) });
          }),
      ),
    );
    expect(errors.map((e) => [e instanceof StoreError, e?.message])).toEqual([
      [true, expect.stringMatching(told)],
      [true, expect.stringMatching(told)],
    ]);
    expect(givenUp).toEqual(givenBack);
  });

  it("when a turn's batches are sent, then they are sent inside one `sending`, so they leave in one write", async () => {
    const sent: (string | number)[][] = [];
    const inside: number[] = [];
    const add = createAdmitBatches({ guard: guard(), sending: (send) => { const before = sent.length; send(); inside.push(sent.length - before); }, maxCalls: 10 });
    const outcomes = new Map<string, string>();
    add(echoCommand(sent, 'x'), 'g1', call('c1', outcomes));
    add(echoCommand(sent, 'y'), 'g2', call('c2', outcomes));
    await nextTurn();
    expect(inside).toEqual([2]);
  });
});
