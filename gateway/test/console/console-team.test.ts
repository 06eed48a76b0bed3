import type { BrowserContext } from 'playwright-core';
import { openSqliteStores } from '../../src/data/sqlite/sqlite-stores';
import { WIDTHS, scrollsSideways, seriousViolations, useBrowserGateway } from '../support/browser-gateway';
import type { WidthName } from '../support/browser-gateway';
import { signInWithToken } from './support/operator-sign-in';

// The account page names the team's members and their roles, at desktop and phone widths.
jest.setTimeout(180_000);

let teamId = '';
const app = useBrowserGateway({
  env: { OPERATOR_EMAILS: 'ops@example.com' },
  prepare: async (file) => {
    const opened = openSqliteStores({ path: file, clock: Date.now });
    try {
      const { accountStore, teamStore } = opened.stores;
      teamId = (await accountStore.createAccount({ email: 'lead@team.example', name: 'Lead Ltd' })).id;
      for (const [email, name, role] of [['lead@team.example', 'Lea Lead', 'owner'], ['payer@team.example', 'Pat Payer', 'billing'], ['dev-with-a-rather-long-address@team.example', 'Dee Dev', 'developer']] as const) {
        const person = await teamStore.createPerson({ email, name });
        await teamStore.addMember(teamId, person.id, role, { invitedBy: null });
      }
    } finally {
      opened.close();
    }
  },
});

let signedIn: Awaited<ReturnType<BrowserContext['storageState']>>;
beforeAll(async () => {
  const { context } = await signInWithToken(app);
  signedIn = await context.storageState();
  await context.close();
});

describe('the console’s account page shows the team', () => {
  it.each(Object.keys(WIDTHS) as WidthName[])('when an operator opens a team’s account at the %s width, then each member is listed with name and role, axe finds nothing serious, and it does not scroll sideways', async (width) => {
    const context = await app.browser.newContext({ viewport: WIDTHS[width], deviceScaleFactor: 1, baseURL: app.url, storageState: signedIn });
    try {
      const page = await context.newPage();
      await page.goto(`/admin/accounts/${teamId}`);
      await page.locator('#members tbody tr').first().waitFor();
      const rows = await page.locator('#members tbody tr').evaluateAll((trs) => trs.map((tr) => Array.from((tr as unknown as { querySelectorAll(s: string): ArrayLike<{ textContent: string | null }> }).querySelectorAll('th, td'), (c) => c.textContent)));
      expect(rows.map((cells) => cells.slice(0, 3))).toEqual([
        ['lead@team.example', 'Lea Lead', 'owner'],
        ['payer@team.example', 'Pat Payer', 'billing'],
        ['dev-with-a-rather-long-address@team.example', 'Dee Dev', 'developer'],
      ]);
      expect(await page.getByRole('heading', { name: 'Team members' }).isVisible()).toBe(true);
      expect(await seriousViolations(page)).toEqual([]);
      expect(await scrollsSideways(page)).toBe(false);
    } finally {
      await context.close();
    }
  });
});
