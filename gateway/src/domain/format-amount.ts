/** "5.75 USD" from 575 and USD: an amount in the smallest unit, with the currency's own number of minor digits. */
export function formatAmount(amount: number, currency: string): string {
  const digits = new Intl.NumberFormat('en', { style: 'currency', currency }).resolvedOptions().maximumFractionDigits ?? 2;
  return `${(amount / 10 ** digits).toFixed(digits)} ${currency}`;
}
