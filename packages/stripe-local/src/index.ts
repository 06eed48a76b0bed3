export { API_VERSION } from './api-version';
export { createStripeLocal } from './create-stripe-local';
export type { StripeLocal } from './create-stripe-local';
export type { StripeLocalOptions } from './stripe-local-options';
export type { ReceiptMail } from './objects/charge';
export type { CheckoutForm } from './billing/complete-checkout';
export { TEST_CARDS, TEST_TOKENS } from './billing/test-cards';
export type { TestCard } from './billing/test-cards';
export { signatureHeader } from './webhooks/signature-header';
