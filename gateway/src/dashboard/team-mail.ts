import type { Mail } from '../mail/mailer';
import type { Person } from '../data/team-store';

/**
 * The invitation mail: the team, who sent it, the role, and the one-time code with its link. The
 * same words whether or not the address has an account (accepting is signing in as it), so the mail
 * tells nobody which.
 */
export function invitationMail(input: { to: string; team: string; from: Pick<Person, 'name' | 'email'>; role: string; code: string; link: string | undefined; expiresAt: string }): Mail {
  const sender = input.from.name && input.from.name !== input.from.email ? `${input.from.name} (${input.from.email})` : input.from.email;
  const how = input.link
    ? ['Open this link, and sign in to the Tollgate portal as this address when asked:', input.link]
    : ['Sign in to the Tollgate portal as this address, open Team, and enter this code:', `    ${input.code}`];
  return {
    to: input.to,
    subject: `${sender} invited you to the team ${input.team} on Tollgate`,
    text: [
      `${sender} invited you to join the team ${input.team} on Tollgate, as ${input.role}.`,
      '',
      ...how,
      '',
      `The invitation works once, until ${input.expiresAt}. If you do not know the sender, ignore this mail: nothing happens without you.`,
    ].join('\n'),
  };
}
