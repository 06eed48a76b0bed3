import type { HistoryCount } from './account-store';
import type { UsageDetail } from './usage-breakdown';
import { createUsageRecorder, historyOutcome } from './usage-recorder';

const DAY = Date.parse('2026-03-31T12:00:00Z');

function recordingStore(fail = () => false) {
  const calls: { counts: HistoryCount[]; lastUsed: Map<string, number>; batchId?: string; details: UsageDetail[] }[] = [];
  const tried: string[] = [];
  return {
    calls,
    tried,
    record: async (counts: readonly HistoryCount[], lastUsed: ReadonlyMap<string, number>, batchId?: string, details: readonly UsageDetail[] = []) => {
      tried.push(batchId ?? '');
      if (fail()) throw new Error('store down');
      calls.push({ counts: structuredClone([...counts]), lastUsed: new Map(lastUsed), batchId, details: structuredClone([...details]) });
    },
  };
}

describe('historyOutcome', () => {
  it.each<[number, boolean, string]>([
    [200, false, '2xx'],
    [204, false, '2xx'],
    [304, false, '2xx'],
    [401, false, '4xx'],
    [402, false, '4xx'],
    [404, false, '4xx'],
    [429, false, '429'],
    [500, false, '5xx'],
    [502, true, 'refunded'],
    [504, true, 'refunded'],
  ])('when a call ends %i (refunded: %s), then it counts as %s', (status, refunded, outcome) => {
    expect(historyOutcome(status, refunded)).toBe(outcome);
  });
});

describe('usage recorder', () => {
  it('when calls are counted, then one flush writes them summed per account, API, day and outcome', async () => {
    const store = recordingStore();
    const recorder = createUsageRecorder({ store, clock: () => DAY, intervalMs: 3_600_000 });
    for (let i = 0; i < 3; i++) recorder.count('acc_a', 'key_a1', 'token', '2xx', DAY);
    recorder.count('acc_a', 'key_a2', 'token', '429', DAY);
    recorder.count('acc_a', 'key_a1', 'token', '2xx', DAY + 86_400_000);
    recorder.count('acc_b', 'key_b1', 'logs', '2xx', DAY);
    await recorder.flush();
    expect(store.calls).toHaveLength(1);
    expect(store.calls[0]!.counts).toEqual([
      { accountId: 'acc_a', api: 'token', dayId: '2026-03-31', outcome: '2xx', count: 3 },
      { accountId: 'acc_a', api: 'token', dayId: '2026-03-31', outcome: '429', count: 1 },
      { accountId: 'acc_b', api: 'logs', dayId: '2026-03-31', outcome: '2xx', count: 1 },
      { accountId: 'acc_a', api: 'token', dayId: '2026-04-01', outcome: '2xx', count: 1 },
    ]);
    await recorder.flush();
    expect(store.calls).toHaveLength(1);
    await recorder.stop();
  });

  it('when the store fails, then the batch is sent again as it was, under the same id (the store adds a batch once), before newer counts', async () => {
    let down = true;
    const store = recordingStore(() => down);
    const recorder = createUsageRecorder({ store, clock: () => DAY, intervalMs: 3_600_000 });
    recorder.count('acc_a', 'key_a1', 'token', '2xx', DAY);
    await recorder.flush();
    recorder.count('acc_a', 'key_a1', 'token', '429', DAY);
    down = false;
    await recorder.flush();
    const one = (outcome: string) => [{ accountId: 'acc_a', api: 'token', dayId: '2026-03-31', outcome, count: 1 }];
    expect(store.calls.map((c) => c.counts)).toEqual([one('2xx'), one('429')]);
    expect(store.tried[0]).toBe(store.calls[0]!.batchId);
    expect(new Set(store.tried).size).toBe(2);
    await recorder.stop();
  });

  it('when a key is used often, then its last use is written at most once a minute', async () => {
    const store = recordingStore();
    let now = DAY;
    const recorder = createUsageRecorder({ store, clock: () => now, intervalMs: 3_600_000 });
    recorder.count('acc_a', 'key_a1', 'token', '2xx', now);
    await recorder.flush();
    now += 30_000;
    recorder.count('acc_a', 'key_a1', 'token', '2xx', now);
    await recorder.flush();
    now += 30_000;
    recorder.count('acc_a', 'key_a1', 'token', '2xx', now);
    await recorder.flush();
    expect(store.calls.map((c) => [...c.lastUsed])).toEqual([[['key_a1', DAY]], [], [['key_a1', DAY + 60_000]]]);
    await recorder.stop();
  });

  it('when stopped, then what is left is written', async () => {
    const store = recordingStore();
    const recorder = createUsageRecorder({ store, clock: () => DAY, intervalMs: 3_600_000 });
    recorder.count('acc_a', 'key_a1', 'burger', '5xx', DAY);
    await recorder.stop();
    expect(store.calls.map((c) => c.counts)).toEqual([[{ accountId: 'acc_a', api: 'burger', dayId: '2026-03-31', outcome: '5xx', count: 1 }]]);
  });

  it('when calls are counted with their route and latency, then the same record call carries them per key, endpoint and latency bucket, unknown routes as one "other"', async () => {
    const store = recordingStore();
    const recorder = createUsageRecorder({ store, clock: () => DAY, intervalMs: 3_600_000 });
    recorder.count('acc_a', 'key_a1', 'burger', '2xx', DAY, '/v1/index/{currency}', 4);
    recorder.count('acc_a', 'key_a1', 'burger', '4xx', DAY, '/v1/index/{currency}', 0.5);
    recorder.count('acc_a', 'key_a2', 'burger', '429', DAY, '/v1/index/{currency}', 1);
    recorder.count('acc_a', 'key_a2', 'token', 'refunded', DAY, null, 70_000);
    recorder.count('acc_a', 'key_a2', 'token', '5xx', DAY, null);
    await recorder.flush();
    const detail = (field: string, count: number) => ({ accountId: 'acc_a', dayId: '2026-03-31', field, count });
    expect(store.calls).toHaveLength(1);
    expect(store.calls[0]!.details).toEqual([
      detail('~kc:key_a1', 2),
      detail('~ke:key_a1', 1),
      detail('~kc:key_a2', 3),
      detail('~ke:key_a2', 2),
      detail('~ec:burger /v1/index/{currency}', 3),
      detail('~ee:burger /v1/index/{currency}', 2),
      detail('~ec:token other', 2),
      detail('~ee:token other', 1),
      detail('~l:0', 2),
      detail('~l:3', 1),
      detail('~l:23', 1),
    ]);
    await recorder.stop();
  });

  it('when the store fails, then the details are sent again with their counts, under the same batch id', async () => {
    let down = true;
    const store = recordingStore(() => down);
    const recorder = createUsageRecorder({ store, clock: () => DAY, intervalMs: 3_600_000 });
    recorder.count('acc_a', 'key_a1', 'token', '2xx', DAY, '/v1/price', 12);
    await recorder.flush();
    down = false;
    await recorder.flush();
    expect(store.calls).toHaveLength(1);
    expect(store.calls[0]!.batchId).toBe(store.tried[0]);
    expect(store.calls[0]!.details.map((d) => d.field)).toEqual(['~kc:key_a1', '~ec:token /v1/price', '~l:5']);
    await recorder.stop();
  });

  it('when a flush has written counts, then the next writes only what came after, and a flush with nothing new writes nothing', async () => {
    const store = recordingStore();
    let now = DAY;
    const recorder = createUsageRecorder({ store, clock: () => now, intervalMs: 3_600_000, lastUsedEveryMs: 3_600_000 });
    recorder.count('acc_a', 'key_a1', 'token', '2xx', now, '/v1/price', 4);
    recorder.count('acc_b', 'key_b1', 'token', '2xx', now, '/v1/price', 4);
    await recorder.flush();
    recorder.count('acc_a', 'key_a1', 'token', '429', now, '/v1/price', 4);
    await recorder.flush();
    await recorder.flush();
    now += 86_400_000;
    recorder.count('acc_a', 'key_a1', 'token', '2xx', now, '/v1/meta', 40);
    await recorder.flush();
    const detail = (dayId: string, field: string) => ({ accountId: 'acc_a', dayId, field, count: 1 });
    expect(store.calls.map((c) => c.counts)).toEqual([
      [
        { accountId: 'acc_a', api: 'token', dayId: '2026-03-31', outcome: '2xx', count: 1 },
        { accountId: 'acc_b', api: 'token', dayId: '2026-03-31', outcome: '2xx', count: 1 },
      ],
      [{ accountId: 'acc_a', api: 'token', dayId: '2026-03-31', outcome: '429', count: 1 }],
      [{ accountId: 'acc_a', api: 'token', dayId: '2026-04-01', outcome: '2xx', count: 1 }],
    ]);
    expect(store.calls[1]!.details).toEqual([detail('2026-03-31', '~kc:key_a1'), detail('2026-03-31', '~ke:key_a1'), detail('2026-03-31', '~ec:token /v1/price'), detail('2026-03-31', '~ee:token /v1/price'), detail('2026-03-31', '~l:3')]);
    expect(store.calls[2]!.details).toEqual([detail('2026-04-01', '~kc:key_a1'), detail('2026-04-01', '~ec:token /v1/meta'), detail('2026-04-01', '~l:8')]);
    await recorder.stop();
  });
});
