/**
 * The API version stripe-local speaks: the one stripe-node 23 pins. Events carry it in
 * `api_version`; a test checks it against the SDK's `Stripe.API_VERSION` so an SDK upgrade that
 * changes object shapes is noticed.
 */
export const API_VERSION = '2026-10-28.endive';
