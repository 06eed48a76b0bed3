import { HISTORY_OUTCOMES } from '../data/account-store';
import type { AccountStore, HistoryDay, HistoryOutcome } from '../data/account-store';
import type { BillingSummary, BillingView } from '../data/billing-view';
import type { UpstreamHealth } from '../data/upstream-health';
import type { Catalogue } from '../domain/catalogue';
import { dayWindow, monthWindow } from '../domain/windows';

/** Counted calls by outcome. */
type Counts = Record<HistoryOutcome, number>;

/** One API on the overview: calls today and this month by outcome, today's error rate, its service's health. */
export interface ApiOverview {
  api: string;
  title: string;
  /** Shown in the portal's catalogue (an unlisted API is served, and reachable by its address). */
  listed: boolean;
  /** Its plans (names), those not offered any more marked `(retired)`. */
  plans: string[];
  today: Counts;
  month: Counts;
  /** Calls that failed on the way (5xx and refunded) among today's calls; null with no calls. */
  error_rate_today: number | null;
  health: UpstreamHealth | null;
}

/** What the console's overview shows. */
export interface Overview {
  day: string;
  month: string;
  /** Where the catalogue in force was read from, and its digest (the same on every gateway serving the same file). */
  catalogue: { source: string; digest: string };
  apis: ApiOverview[];
  accounts: { total: number; active_this_month: number };
  /** null: no billing on this server (no paid plans are sold). */
  billing: BillingSummary | null;
  top_accounts: { account_id: string; email: string | null; name: string; status: string; calls: number }[];
}

/** What the overview is read from. */
export interface OverviewDeps {
  accountStore: AccountStore;
  billing: BillingView;
  health: () => Promise<UpstreamHealth[]>;
  catalogue: () => Catalogue;
  clock: () => number;
}

const zero = (): Counts => Object.fromEntries(HISTORY_OUTCOMES.map((o) => [o, 0])) as Counts;

function sum(days: readonly HistoryDay[], api: string, from: string): Counts {
  const total = zero();
  for (const d of days) if (d.api === api && d.day >= from) for (const o of HISTORY_OUTCOMES) total[o] += d.counts[o];
  return total;
}

/**
 * The whole server at a glance, from the totals the usage history keeps (every gateway's calls,
 * counted within about a second; calls whose key was not known are not counted), the accounts'
 * index, the services' `/readyz` and billing's summary.
 */
export async function readOverview(deps: OverviewDeps): Promise<Overview> {
  const nowMs = deps.clock();
  const day = dayWindow(nowMs).id;
  const month = monthWindow(nowMs);
  const monthStart = dayWindow(month.startMs).id;
  const catalogue = deps.catalogue();
  const names = Object.keys(catalogue.apis);
  const [days, total, { top, active }, health, billing] = await Promise.all([
    deps.accountStore.serverHistory(names, monthStart, day),
    deps.accountStore.countAccounts(),
    deps.accountStore.topAccounts(month.id, 10),
    deps.health(),
    deps.billing.summary(),
  ]);
  const apis = Object.values(catalogue.apis).map(({ name: api, title, listed, plans }) => {
    const today = sum(days, api, day);
    const calls = HISTORY_OUTCOMES.reduce((n, o) => n + today[o], 0);
    return { api, title, listed, plans: Object.entries(plans).map(([plan, p]) => (p.offered ? plan : `${plan} (retired)`)), today, month: sum(days, api, monthStart), error_rate_today: calls ? (today['5xx'] + today.refunded) / calls : null, health: health.find((h) => h.api === api) ?? null };
  });
  const accounts = await Promise.all(top.map((t) => deps.accountStore.getAccount(t.account_id)));
  return {
    day,
    month: month.id,
    catalogue: { source: catalogue.source, digest: catalogue.digest },
    apis,
    accounts: { total, active_this_month: active },
    billing: billing ?? null,
    top_accounts: top.map((t, i) => ({ account_id: t.account_id, email: accounts[i]?.email ?? null, name: accounts[i]?.name ?? '', status: accounts[i]?.status ?? 'deleted', calls: t.calls })),
  };
}
