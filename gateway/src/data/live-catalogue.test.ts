import { createLogger } from '@tollgate/envelope';
import { parseCatalogue } from '../domain/catalogue-file';
import type { NewAuditEntry } from './audit-log';
import type { AuditSource } from './audited-account-store';
import { CatalogueInvalidError, createCatalogueReloader, createLiveCatalogue } from './live-catalogue';

const api = (name: string, price: number, extra = '') => `  ${name}:\n    title: ${name}\n    summary: The ${name} API\n    upstream: http://127.0.0.1:9100\n    plans:\n      free: { monthly_quota: 5, rate_per_second: 2, price: 0, currency: USD }\n      pro: { monthly_quota: 50, rate_per_second: 5, price: ${price}, currency: USD${extra} }\n`;
const read = (text: string) => parseCatalogue(`apis:\n${text}`, { source: 'test.yaml', format: 'yaml', defaults: { timeoutMs: 1_000, maxConnections: 8 } });
const logger = createLogger({ service: 'test', level: 'silent' });
const BY: AuditSource = { actor: { type: 'operator', id: 'ops@example.com', via: 'console' }, from: '10.0.0.1' };

describe('createLiveCatalogue', () => {
  it('when a reload keeps an API as it was, then it is the same object; the plan table is one object whose entries follow; a removed API is remembered as withdrawn until it comes back', () => {
    const live = createLiveCatalogue(read(api('weather', 900) + api('maps', 500)), logger);
    const { plans } = live;
    const weather = live.current().apis.weather;
    const seen: string[][] = [];
    live.onChange(() => {
      throw new Error('a room that fails to follow');
    });
    live.onChange((_next, changes) => seen.push(changes.removed));
    const changes = live.replace(read(api('weather', 900)), Date.parse('2026-11-28T10:00:00Z'));
    expect(changes).toEqual({ added: [], removed: ['maps'], changed: [], plansWithdrawn: [], plansRepriced: [] });
    expect(live.current().apis.weather).toBe(weather);
    expect(live.plans).toBe(plans);
    expect(Object.keys(plans)).toEqual(['weather']);
    expect(seen).toEqual([['maps']]);
    expect(live.withdrawn('maps')).toEqual({ title: 'maps', atMs: Date.parse('2026-11-28T10:00:00Z') });
    live.replace(read(api('weather', 1200) + api('maps', 500)), 0);
    expect(live.withdrawn('maps')).toBeUndefined();
    expect(live.current().apis.weather).not.toBe(weather);
    expect(plans.weather?.plans.pro?.price).toBe(1200);
  });
});

describe('createCatalogueReloader', () => {
  it('when the file is bad, then the running catalogue stays, the error is one line saying so, and nothing is audited; when good, it is put in force, audited and followed', async () => {
    const live = createLiveCatalogue(read(api('weather', 900)), logger);
    let next: () => ReturnType<typeof read> = () => {
      throw new Error('test.yaml, line 3: apis.weather needs \'summary\'');
    };
    const audited: NewAuditEntry[] = [];
    const followed: unknown[] = [];
    const reload = createCatalogueReloader({ live, read: () => next(), clock: () => 0, logger, audit: async (entry) => void audited.push(entry), follow: async (changes) => (followed.push(changes), { withdrawals: { ended: [], failed: 0 } }) });
    const before = live.current();
    const refused = await reload(BY).catch((err: unknown) => err);
    expect(refused).toBeInstanceOf(CatalogueInvalidError);
    expect((refused as Error).message).toBe(`test.yaml, line 3: apis.weather needs 'summary'; the running catalogue (${before.digest}) stays in force`);
    expect(live.current()).toBe(before);
    expect([audited, followed]).toEqual([[], []]);

    next = () => read(api('weather', 900, ', offered: false'));
    const done = await reload(BY);
    expect(done.changes).toEqual({ added: [], removed: [], changed: ['weather'], plansWithdrawn: ['weather pro'], plansRepriced: [] });
    expect(done.followed).toEqual({ withdrawals: { ended: [], failed: 0 } });
    expect(audited).toEqual([{ account_id: null, ...BY, action: 'catalogue.reload', target: 'test.yaml', details: { digest: done.digest, previous_digest: before.digest, changes: done.changes } }]);
    expect(live.current().apis.weather?.plans.pro?.offered).toBe(false);
  });
});
