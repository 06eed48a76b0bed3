import type { Customer } from '../objects/customer';
import type { InvoiceTax } from '../objects/invoice';

/**
 * The standard VAT rates stripe-local's stand-in for Stripe Tax applies, by the billing address's
 * country, in percent: enough to test a flow, not a tax engine. A country not listed is
 * `not_collecting` (no tax, as Stripe does where the account is not registered).
 */
export const TAX_RATES: Readonly<Record<string, number>> = Object.freeze({
  AT: 20, BE: 21, DE: 19, DK: 25, ES: 21, FI: 25.5, FR: 20, GB: 20, IE: 23, IT: 22, LU: 17, NL: 21, PL: 23, PT: 23, SE: 25,
});

/** The EU countries among them: a business there with a VAT number is charged no VAT (reverse charge). */
const EU = new Set(['AT', 'BE', 'DE', 'DK', 'ES', 'FI', 'FR', 'IE', 'IT', 'LU', 'NL', 'PL', 'PT', 'SE']);

/** A customer's address and tax IDs, as Stripe Tax reads them. */
export interface TaxLocation {
  country: string | null;
  taxIds: { type: string; value: string }[];
}

/** Where a customer is taxed: its billing address, and its tax IDs (kept beside it). */
export function taxLocation(customer: Customer, taxIds: { type: string; value: string }[] = []): TaxLocation {
  return { country: customer.address?.country ?? null, taxIds };
}

/** The tax on `taxable` (the invoice's subtotal) for a customer at `where`; empty without an address. */
export function computeTax(taxable: number, where: TaxLocation): InvoiceTax[] {
  const country = where.country;
  if (!country) return [];
  const rate = TAX_RATES[country];
  const base = { tax_behavior: 'exclusive' as const, tax_rate_details: { tax_rate: `txr_${country.toLowerCase()}_${rate ?? 0}` }, taxable_amount: taxable, type: 'tax_rate_details' as const };
  if (rate === undefined) return [{ ...base, amount: 0, taxability_reason: 'not_collecting' }];
  if (EU.has(country) && where.taxIds.some((id) => id.type === 'eu_vat')) return [{ ...base, amount: 0, taxability_reason: 'reverse_charge' }];
  return [{ ...base, amount: Math.round((taxable * rate) / 100), taxability_reason: 'standard_rated' }];
}
