import type { Decline } from '../http/stripe-error';

/** A test card: its brand, and what attaching it and charging it do (`null` succeeds). */
export interface TestCard {
  number: string;
  brand: 'visa' | 'mastercard';
  funding: 'credit' | 'debit';
  attach: Decline | null;
  charge: Decline | null;
}

/** Stripe's generic decline. */
export const GENERIC_DECLINE: Decline = { code: 'card_declined', decline_code: 'generic_decline', message: 'Your card was declined.' };

/** Stripe's decline for insufficient funds. */
export const INSUFFICIENT_FUNDS: Decline = { code: 'card_declined', decline_code: 'insufficient_funds', message: 'Your card has insufficient funds.' };

const LIVE_CARD: Decline = {
  code: 'card_declined',
  decline_code: 'test_mode_live_card',
  message: 'Your card was declined. Your request was in test mode, but used a non test (live) card. For a list of valid test cards, visit: https://stripe.com/docs/testing.',
};

const card = (number: string, brand: TestCard['brand'], attach: Decline | null, charge: Decline | null, funding: TestCard['funding'] = 'credit'): TestCard => ({
  number,
  brand,
  funding,
  attach,
  charge,
});

/** The card numbers a person may type on the hosted pages. */
export const TEST_CARDS: readonly TestCard[] = [
  card('4242424242424242', 'visa', null, null),
  card('4000056655665556', 'visa', null, null, 'debit'),
  card('5555555555554444', 'mastercard', null, null),
  // Attaches (and so can be saved in the portal) but every charge fails: a failed renewal.
  card('4000000000000341', 'visa', null, GENERIC_DECLINE),
  // Declined wherever it is entered, as a first payment at Checkout is.
  card('4000000000009995', 'visa', INSUFFICIENT_FUNDS, INSUFFICIENT_FUNDS),
  card('4000000000000002', 'visa', GENERIC_DECLINE, GENERIC_DECLINE),
];

/**
 * Stripe's test PaymentMethod ids and tokens for API callers: `pm_card_visa` to `attach`,
 * `tok_visa` as `card[token]`. They behave like the card numbers, except that Stripe's
 * `…chargeDeclinedInsufficientFunds` attaches and fails only when charged.
 */
export const TEST_TOKENS: Readonly<Record<string, TestCard>> = {
  visa: card('4242424242424242', 'visa', null, null),
  visa_debit: card('4000056655665556', 'visa', null, null, 'debit'),
  mastercard: card('5555555555554444', 'mastercard', null, null),
  chargeCustomerFail: card('4000000000000341', 'visa', null, GENERIC_DECLINE),
  visa_chargeDeclinedInsufficientFunds: card('4000000000009995', 'visa', null, INSUFFICIENT_FUNDS),
  chargeDeclined: card('4000000000000002', 'visa', GENERIC_DECLINE, GENERIC_DECLINE),
};

/** The test card behind `pm_card_<name>` or `tok_<name>`, if it is one. */
export function testTokenCard(id: string): TestCard | undefined {
  const name = /^(?:pm_card_|tok_)(.+)$/.exec(id)?.[1];
  return name !== undefined && Object.hasOwn(TEST_TOKENS, name) ? TEST_TOKENS[name] : undefined;
}

/** Luhn's checksum, which every real card number passes. */
export function passesLuhn(digits: string): boolean {
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    let digit = Number(digits[digits.length - 1 - i]);
    if (i % 2 === 1) digit = digit * 2 > 9 ? digit * 2 - 9 : digit * 2;
    sum += digit;
  }
  return sum % 10 === 0;
}

/** The test card with this number; a number that is not a test card is declined as a live card. */
export function findTestCard(digits: string): TestCard | Decline {
  return TEST_CARDS.find((known) => known.number === digits) ?? LIVE_CARD;
}
