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

  it('when the store never answers a batch, then every call in it is given up and told the store failed', async () => {
    const add = createAdmitBatches({ guard: guard(20), sending: sendingNow, maxCalls: 10 });
    const outcomes = new Map<string, string>();
    const givenUp: string[] = [];
    const silent: BatchCommand<Reply> = () => new Promise<Reply[]>(() => undefined);
    add(silent, '', call('c1', outcomes, givenUp));
    add(silent, '', call('c2', outcomes, givenUp));
    while (outcomes.size < 2) await new Promise((resolve) => setTimeout(resolve, 10));
    expect(givenUp).toEqual(['c1', 'c2']);
    expect([...outcomes.values()].every((o) => /^error: quota store admit failed: no answer within \d+ ms$/.test(o))).toBe(true);
  });

  it.each<[string, BatchCommand<Reply>, RegExp]>([
    ['Redis refuses the script', () => Promise.reject(Object.assign(new Error('ERR script failed'), { name: 'ReplyError' })), /^error: quota store admit failed: ERR script failed$/],
    ['fewer replies than calls come back', () => Promise.resolve(['only one']), /^error: quota store admit failed: 1 replies for 2 calls$/],
  ])('when %s, then every call in the batch is told the store failed', async (_case, command, told) => {
    const add = createAdmitBatches({ guard: guard(), sending: sendingNow, maxCalls: 10 });
    const outcomes = new Map<string, string>();
    const errors: unknown[] = [];
    for (const name of ['c1', 'c2']) {
      const c = call(name, outcomes);
      const settle = c.settle;
      add(command, '', { ...c, settle: (error, reply) => (errors.push(error), settle(error, reply)) });
    }
    await nextTurn();
    await nextTurn();
    expect([...outcomes.values()]).toEqual([expect.stringMatching(told), expect.stringMatching(told)]);
    expect(errors.every((e) => e instanceof StoreError)).toBe(true);
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
