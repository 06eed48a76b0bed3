import type { Mail } from '../mail/mailer';
import { CODE_TTL_MS } from './sign-in-codes';

const minutes = CODE_TTL_MS / 60_000;
const whomToAsk = (supportEmail: string | undefined): string => (supportEmail ? `write to ${supportEmail}` : 'contact the people who run this portal');

/** The code that proves a new address, mailed to it. */
export function emailChangeCodeMail(to: string, code: string): Mail {
  return {
    to,
    subject: 'Confirm your new Tollgate email address',
    text: [
      'Your code to move your Tollgate account to this address:',
      '',
      `    ${code}`,
      '',
      'Enter it on the Account page of the portal you asked from.',
      '',
      `The code works once, for ${minutes} minutes. If you did not ask for it, ignore this mail: nothing changes without it.`,
    ].join('\n'),
  };
}

/** Sent instead of a code when the new address already has an account: the asker is told nothing more than with a code. */
export function emailTakenMail(to: string): Mail {
  return {
    to,
    subject: 'Your Tollgate email address',
    text: [
      'Someone signed in to a Tollgate account asked to move it to this address, but this address already has an account of its own, so nothing changed.',
      '',
      'If it was you, sign in with this address to use that account, or delete one of the two accounts first. If it was not you, ignore this mail.',
    ].join('\n'),
  };
}

/** Tells the old address, before the change is made, where the account is going. */
export function emailChangedMail(to: string, newAddress: string, supportEmail: string | undefined): Mail {
  return {
    to,
    subject: 'Your Tollgate email address was changed',
    text: [
      `The email address of your Tollgate account is now ${newAddress}. Signing in works with that address from now on, and every other session of the account was signed out.`,
      '',
      `If you did not make this change, ${whomToAsk(supportEmail)} at once.`,
    ].join('\n'),
  };
}

/** The code that confirms deleting an account. */
export function deletionCodeMail(to: string, code: string): Mail {
  return {
    to,
    subject: 'Confirm deleting your Tollgate account',
    text: [
      'Your code to delete your Tollgate account:',
      '',
      `    ${code}`,
      '',
      'Entering it on the Account page deletes the account at once: its keys stop working, paid plans are canceled, and its data is erased. This cannot be undone.',
      '',
      `The code works once, for ${minutes} minutes. If you did not ask for it, ignore this mail: nothing changes without it.`,
    ].join('\n'),
  };
}

/** The code that confirms a person deleting themselves, mailed to them. */
export function personDeletionCodeMail(to: string, code: string): Mail {
  return {
    to,
    subject: 'Confirm deleting yourself from Tollgate',
    text: [
      'Your code to delete yourself from Tollgate:',
      '',
      `    ${code}`,
      '',
      'Entering it on the Account page deletes you at once: you leave every team (the keys you made stay theirs), a team you are alone in is deleted with its keys and paid plans, and your address is erased. This cannot be undone.',
      '',
      `The code works once, for ${minutes} minutes. If you did not ask for it, ignore this mail: nothing changes without it.`,
    ].join('\n'),
  };
}
