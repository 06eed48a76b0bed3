// Refusals a customer reads that several routes give: one wording each, in plain sentences that
// say what happened and what to do (the message scan test holds every customer-facing text to it).

/** 403 for any key or session of a suspended account. */
export const ACCOUNT_SUSPENDED = 'Your account is suspended, so its keys and sign-ins are refused. Write to the people who run this service to have it reopened.';

/** 503 while calls cannot be checked (the store behind keys and quotas does not answer). */
export const CHECKS_UNAVAILABLE = 'Calls cannot be checked for a moment, so this one was refused and not charged. Retry in a second.';

/** 503 failing open, for a key not seen recently: as {@link CHECKS_UNAVAILABLE}, saying why this key was not let through. */
export const CHECKS_UNAVAILABLE_UNKNOWN_KEY = 'Calls cannot be checked for a moment, and this key was not used recently enough to be let through unchecked. Retry in a second; nothing was charged.';
