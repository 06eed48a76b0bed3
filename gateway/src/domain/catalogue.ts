import type { ApiPlans, Plan, PlanTable } from './plans';

/** A plan as the catalogue sells it: its limits and price, and what the pricing table says of it. */
export interface CataloguePlan extends Plan {
  /** Lines the pricing table shows for the plan (`Hourly data`, `Commercial use`); none by default. */
  features: string[];
  /**
   * Whether the plan is offered: a plan that is not keeps serving the accounts that hold it until
   * they change, and is neither shown on the pricing tables nor taken anew (a retired plan).
   */
  offered: boolean;
}

/** How the gateway proxies one API's calls. */
export interface ProxySettings {
  /** Idle time (ms) without a byte from the service, or waiting for a free connection, before 504. */
  timeout_ms: number;
  /** Connections kept to the service at most. */
  max_connections: number;
  /** Client headers the gateway withholds from services by default that this one receives (`authorization`). */
  forward_headers: ForwardableHeader[];
  /** Whether the service's `Set-Cookie` reaches the client (never one of the gateway's own cookies). */
  forward_set_cookie: boolean;
}

/** The client headers an API may be configured to receive. */
export const FORWARDABLE_HEADERS = ['authorization'] as const;
export type ForwardableHeader = (typeof FORWARDABLE_HEADERS)[number];

/** One API of the catalogue: its texts, its service, its plans and how it is proxied. */
export interface CatalogueApi extends ApiPlans {
  /** Its name: the path prefix it is served under (`/{name}/v1/...`). */
  name: string;
  title: string;
  /** One line: what it answers (the catalogue's card, the reference page's lead). */
  summary: string;
  /** Markdown; empty for none. */
  description: string;
  /** {@link description} as HTML: Markdown rendered with raw HTML escaped (see markdown.ts). */
  description_html: string;
  /** The service's base URL, without a trailing slash. */
  upstream: string;
  /** Where the service's OpenAPI document is, absolute. */
  openapi: string;
  /** The service's readiness check (the console's overview), absolute. */
  health: string;
  /** Listed in the portal's catalogue and Try it; an unlisted API is still served and reachable by its address. */
  listed: boolean;
  plans: Record<string, CataloguePlan>;
  proxy: ProxySettings;
}

/** Every API the gateway sells, in the order the catalogue lists them. */
export interface Catalogue {
  apis: Record<string, CatalogueApi>;
  /** Where it was read from (a file path, or `built-in`), for logs and answers. */
  source: string;
  /** SHA-256 (hex, first 16) of what was read: gateways that show the same digest serve the same catalogue. */
  digest: string;
}

/** What a catalogue reload changed, API by API and plan by plan. */
export interface CatalogueChanges {
  added: string[];
  removed: string[];
  /** APIs present in both whose settings, texts or plans differ. */
  changed: string[];
  /** `api plan` of plans that are gone (their API kept) or no longer offered. */
  plansWithdrawn: string[];
  /** `api plan` of plans whose price or currency changed. */
  plansRepriced: string[];
}

const same = (a: unknown, b: unknown): boolean => JSON.stringify(a) === JSON.stringify(b);

/** What differs between two catalogues, for the reload's answer and log. */
export function catalogueChanges(before: Catalogue, after: Catalogue): CatalogueChanges {
  const changes: CatalogueChanges = { added: [], removed: [], changed: [], plansWithdrawn: [], plansRepriced: [] };
  for (const name of Object.keys(after.apis)) if (!Object.hasOwn(before.apis, name)) changes.added.push(name);
  for (const [name, old] of Object.entries(before.apis)) {
    const now = Object.hasOwn(after.apis, name) ? after.apis[name] : undefined;
    if (!now) {
      changes.removed.push(name);
      continue;
    }
    if (!same(old, now)) changes.changed.push(name);
    for (const [plan, was] of Object.entries(old.plans)) {
      const is = Object.hasOwn(now.plans, plan) ? now.plans[plan] : undefined;
      if (!is || (was.offered && !is.offered)) changes.plansWithdrawn.push(`${name} ${plan}`);
      else if (is.price !== was.price || is.currency !== was.currency) changes.plansRepriced.push(`${name} ${plan}`);
    }
  }
  return changes;
}

/** Whether `plan` of `api` is in the catalogue and offered (what a new subscription may take). */
export function isOffered(catalogue: Catalogue, api: string, plan: string): boolean {
  const entry = Object.hasOwn(catalogue.apis, api) ? catalogue.apis[api] : undefined;
  return entry !== undefined && Object.hasOwn(entry.plans, plan) && (entry.plans[plan] as CataloguePlan).offered;
}

/** The catalogue's plans alone, in the `PLANS_FILE` shape (limits and prices, nothing the portal shows). */
export function plainPlanTable(catalogue: Catalogue): PlanTable {
  return Object.fromEntries(
    Object.entries(catalogue.apis).map(([name, api]) => [
      name,
      { playground_per_day: api.playground_per_day, plans: Object.fromEntries(Object.entries(api.plans).map(([plan, p]) => [plan, { monthly_quota: p.monthly_quota, rate_per_second: p.rate_per_second, price: p.price, currency: p.currency }])) },
    ]),
  );
}
