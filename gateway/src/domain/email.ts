// Deliberately loose (one @, a dot in the domain, no spaces): the proof is the mail that arrives.
const EMAIL = /^[^\s@]+@[^\s@.]+(\.[^\s@.]+)+$/;

/** Longest address SMTP allows (RFC 5321 path limit). */
export const MAX_EMAIL_LENGTH = 254;

/** An address lower-cased and trimmed, or null when the string is not one. */
export function normaliseEmail(value: string): string | null {
  const email = value.trim().toLowerCase();
  return email.length <= MAX_EMAIL_LENGTH && EMAIL.test(email) ? email : null;
}
