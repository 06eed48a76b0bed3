import { createId } from '../core/create-id';
import { formatDate, formatMoney } from '../core/format-money';
import type { InvoiceLine } from '../objects/invoice';
import type { Price } from '../objects/price';
import type { Product } from '../objects/product';

/** What an invoice line is made from. */
export interface LineSource {
  price: Price;
  product: Product | undefined;
  quantity: number;
  subscriptionId: string;
  itemId: string;
  period: { start: number; end: number };
}

/** `1 × Pro (at $20.00 / month)`, as Stripe describes a subscription line. */
export function describePrice(source: Pick<LineSource, 'price' | 'product' | 'quantity'>): string {
  const per = source.price.recurring ? ` / ${source.price.recurring.interval_count > 1 ? `${source.price.recurring.interval_count} ` : ''}${source.price.recurring.interval}` : '';
  return `${source.quantity} × ${source.product?.name ?? source.price.product} (at ${formatMoney(source.price.unit_amount, source.price.currency)}${per})`;
}

/** A line for a whole period of an item. */
export function periodLine(source: LineSource): InvoiceLine {
  return line(source, source.price.unit_amount * source.quantity, describePrice(source), false);
}

/**
 * A proration line from `from` to the period's end: `Remaining time on …` for the new price,
 * `Unused time on …` (a credit) for the old one.
 */
export function prorationLine(source: LineSource, amount: number, from: number, credit: boolean): InvoiceLine {
  const what = `${credit ? 'Unused' : 'Remaining'} time on ${describePrice(source)} after ${formatDate(from)}`;
  return line({ ...source, period: { start: from, end: source.period.end } }, credit ? -amount : amount, what, true);
}

function line(source: LineSource, amount: number, description: string, proration: boolean): InvoiceLine {
  return {
    id: createId('il_'),
    object: 'line_item',
    amount,
    currency: source.price.currency,
    description,
    discount_amounts: [],
    discountable: !proration,
    discounts: [],
    invoice: '',
    livemode: false,
    metadata: {},
    parent: {
      invoice_item_details: null,
      subscription_item_details: { invoice_item: null, proration, proration_details: { credited_items: null }, subscription: source.subscriptionId, subscription_item: source.itemId },
      type: 'subscription_item_details',
    },
    period: { ...source.period },
    pretax_credit_amounts: [],
    pricing: { price_details: { price: source.price.id, product: source.price.product }, type: 'price_details', unit_amount_decimal: source.price.unit_amount_decimal },
    quantity: source.quantity,
    subtotal: amount,
    taxes: [],
  };
}
