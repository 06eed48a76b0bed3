// Currencies Stripe counts in whole units (no cents).
const ZERO_DECIMAL = new Set(['bif', 'clp', 'djf', 'gnf', 'jpy', 'kmf', 'krw', 'mga', 'pyg', 'rwf', 'ugx', 'vnd', 'vuv', 'xaf', 'xof', 'xpf']);
const SYMBOLS: Record<string, string> = { usd: '$', eur: '€', gbp: '£', jpy: '¥', cny: '¥' };

/** An amount in the smallest currency unit, for people: `$5.75`, `€9.50`, `1,000 KRW`. */
export function formatMoney(amount: number, currency: string): string {
  const code = currency.toLowerCase();
  const digits = ZERO_DECIMAL.has(code) ? 0 : 2;
  const value = (Math.abs(amount) / 10 ** digits).toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits });
  const sign = amount < 0 ? '-' : '';
  const symbol = Object.hasOwn(SYMBOLS, code) ? SYMBOLS[code] : undefined;
  return symbol ? `${sign}${symbol}${value}` : `${sign}${value} ${code.toUpperCase()}`;
}

/** A unix time as a date, in UTC: `15 Mar 2026`. */
export function formatDate(seconds: number): string {
  return new Date(seconds * 1000).toLocaleDateString('en-GB', { day: 'numeric', month: 'short', year: 'numeric', timeZone: 'UTC' });
}
