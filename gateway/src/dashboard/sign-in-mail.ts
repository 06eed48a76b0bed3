import { CODE_TTL_MS } from './sign-in-codes';

/** The portal's sign-in mail: the code on a line of its own, and (when one can be trusted) a link that signs in from any device. */
export function signInMail(to: string, code: string, link: string | undefined): { to: string; subject: string; text: string } {
  const how = link ? ['Enter it on the sign-in page you asked from, or open this link (on any device):', link] : ['Enter it on the sign-in page of the Tollgate portal you asked from.'];
  return {
    to,
    subject: 'Your Tollgate sign-in code',
    text: [
      'Your Tollgate sign-in code:',
      '',
      `    ${code}`,
      '',
      ...how,
      '',
      `The code works once, for ${CODE_TTL_MS / 60_000} minutes. If you did not ask for it, ignore this mail: nobody can sign in without it.`,
    ].join('\n'),
  };
}
