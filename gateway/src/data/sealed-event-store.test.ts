import { createMemoryEventStore } from './memory/memory-events';
import type { WebhookEndpoint } from './event-store';
import { resealSecrets, sealedEventStore } from './sealed-event-store';
import { SecretsKeyError, createSecretBox } from './secret-box';

const key = (byte: number): Buffer => Buffer.from(Array.from({ length: 32 }, (_, i) => (byte * 7 + i) % 256));
const endpoint = (id: string, secret: string, previous: string | null = null): WebhookEndpoint => ({
  id,
  account_id: 'acc_1',
  url: 'https://hooks.example.com/x',
  description: '',
  types: ['key.revoked'],
  enabled: true,
  disabled_reason: null,
  created_at: '2026-03-31T12:00:00.000Z',
  secret,
  previous_secret: previous,
  previous_secret_until: previous ? '2026-04-01T12:00:00.000Z' : null,
  failing_since: null,
});

describe('webhook signing secrets sealed in the event store', () => {
  it('when endpoints are written through the sealed store, then the store underneath holds no secret, and reading gives them back', async () => {
    const inner = createMemoryEventStore({ clock: () => 0 });
    const store = sealedEventStore(inner, createSecretBox({ current: key(1), previous: [] }));
    await store.createEndpoint(endpoint('whe_1', 'whsec_one', 'whsec_old'), 10);
    const kept = (await inner.getEndpoint('acc_1', 'whe_1'))!;
    expect(JSON.stringify(kept)).not.toMatch(/whsec_/);
    expect(await store.getEndpoint('acc_1', 'whe_1')).toEqual(endpoint('whe_1', 'whsec_one', 'whsec_old'));
    expect(await store.listEndpoints('acc_1')).toEqual([endpoint('whe_1', 'whsec_one', 'whsec_old')]);
    const read = (await store.getEndpoint('acc_1', 'whe_1'))!;
    expect(await store.putEndpoint({ ...read, secret: 'whsec_two' }, read)).toBe(true);
    expect(await store.putEndpoint({ ...read, secret: 'whsec_three' }, read)).toBe(false);
    expect((await store.getEndpoint('acc_1', 'whe_1'))!.secret).toBe('whsec_two');
  });

  it('when secrets were kept plain, or under a previous key, then a reseal seals them under the current key, once, and a value without its key stops it', async () => {
    const inner = createMemoryEventStore({ clock: () => 0 });
    await inner.createEndpoint(endpoint('whe_plain', 'whsec_plain'), 10);
    await sealedEventStore(inner, createSecretBox({ current: key(1), previous: [] })).createEndpoint(endpoint('whe_old', 'whsec_old', 'whsec_older'), 10);
    const rotated = createSecretBox({ current: key(2), previous: [key(1)] });
    expect(await resealSecrets(inner, rotated)).toEqual({ endpoints: 2, resealed: 2 });
    expect(await resealSecrets(inner, rotated)).toEqual({ endpoints: 2, resealed: 0 });
    const now = createSecretBox({ current: key(2), previous: [] });
    expect((await sealedEventStore(inner, now).listEndpoints('acc_1')).map((e) => [e.secret, e.previous_secret])).toEqual([
      ['whsec_old', 'whsec_older'],
      ['whsec_plain', null],
    ]);
    await expect(resealSecrets(inner, createSecretBox({ current: key(3), previous: [] }))).rejects.toThrow(SecretsKeyError);
  });
});
