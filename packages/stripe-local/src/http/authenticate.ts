import { authenticationError } from './stripe-error';

/**
 * The secret key of a request, from `Authorization: Bearer sk_test_…` or Basic auth with the key
 * as the user name (curl's `-u sk_test_…:`). Only test-mode keys are accepted.
 */
export function authenticate(header: string | undefined): string {
  if (!header) {
    throw authenticationError(
      "You did not provide an API key. You need to provide your API key in the Authorization header, using Bearer auth (e.g. 'Authorization: Bearer YOUR_SECRET_KEY'). See https://stripe.com/docs/api#authentication for details, or we can help at https://support.stripe.com/.",
    );
  }
  const [scheme = '', credentials = ''] = header.trim().split(/\s+/, 2);
  let key = credentials;
  if (scheme.toLowerCase() === 'basic') key = Buffer.from(credentials, 'base64').toString('utf8').split(':')[0] ?? '';
  else if (scheme.toLowerCase() !== 'bearer') throw authenticationError('Invalid API Key provided: use Bearer authentication with a secret key.');
  if (!/^sk_test_[A-Za-z0-9_]+$/.test(key)) {
    const shown = key.length > 8 ? `${key.slice(0, 8)}${'*'.repeat(Math.min(key.length - 12, 20))}${key.slice(-4)}` : key.replace(/./g, '*');
    throw authenticationError(`Invalid API Key provided: ${shown}. stripe-local accepts test-mode secret keys (sk_test_…) only.`);
  }
  return key;
}
