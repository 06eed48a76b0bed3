import { createHash } from 'node:crypto';
import { cardError } from '../http/stripe-error';
import type { CardDetails } from '../objects/payment-method';
import { findTestCard, passesLuhn } from './test-cards';
import type { TestCard } from './test-cards';

/** What a person typed into a hosted page's card fields. */
export interface CardForm {
  number?: string;
  expiry?: string;
  cvc?: string;
}

/** A card that passed the form checks: the test card it is and the details Stripe would show. */
export interface EnteredCard {
  testCard: TestCard;
  details: CardDetails;
}

const INVALID_MONTH = { code: 'invalid_expiry_month', message: "Your card's expiration month is invalid." };
const INVALID_YEAR = { code: 'invalid_expiry_year', message: "Your card's expiration year is invalid." };

/**
 * Checks the card fields as Stripe's card form does (number and Luhn, expiry in the future as of
 * `at`, a 3- or 4-digit CVC) and finds the test card; each failure is the card error Stripe gives.
 */
export function readCardForm(form: CardForm, at: number): EnteredCard {
  const digits = (form.number ?? '').replace(/[\s-]/g, '');
  if (!/^\d{12,19}$/.test(digits) || !passesLuhn(digits)) {
    throw cardError({ code: 'incorrect_number', message: 'Your card number is incorrect.' }, 'number');
  }
  const { month, year } = readExpiry(form.expiry ?? '', at);
  if (!/^\d{3,4}$/.test((form.cvc ?? '').trim())) throw cardError({ code: 'invalid_cvc', message: "Your card's security code is invalid." }, 'cvc');
  const found = findTestCard(digits);
  if (!('number' in found)) throw cardError(found);
  return { testCard: found, details: cardDetails(found, month, year) };
}

function readExpiry(text: string, at: number): { month: number; year: number } {
  const match = /^\s*(\d{1,2})\s*\/?\s*(\d{2}|\d{4})\s*$/.exec(text);
  if (!match) throw cardError(INVALID_MONTH, 'exp_month');
  const month = Number(match[1]);
  const year = match[2]!.length === 2 ? 2000 + Number(match[2]) : Number(match[2]);
  if (month < 1 || month > 12) throw cardError(INVALID_MONTH, 'exp_month');
  const now = new Date(at * 1000);
  const nowYear = now.getUTCFullYear();
  if (year < nowYear || year > nowYear + 50) throw cardError(INVALID_YEAR, 'exp_year');
  if (year === nowYear && month < now.getUTCMonth() + 1) throw cardError({ code: 'expired_card', message: 'Your card has expired.' }, 'exp_month');
  return { month, year };
}

/** The details Stripe shows for a test card. */
export function cardDetails(card: TestCard, month: number, year: number): CardDetails {
  return {
    brand: card.brand,
    checks: { address_line1_check: null, address_postal_code_check: null, cvc_check: 'pass' },
    country: 'US',
    display_brand: card.brand,
    exp_month: month,
    exp_year: year,
    fingerprint: createHash('sha256').update(card.number).digest('base64url').slice(0, 16),
    funding: card.funding,
    generated_from: null,
    last4: card.number.slice(-4),
    networks: { available: [card.brand], preferred: null },
    regulated_status: 'unregulated',
    three_d_secure_usage: { supported: true },
    wallet: null,
  };
}
