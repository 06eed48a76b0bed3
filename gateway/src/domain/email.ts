import { domainToASCII, domainToUnicode } from 'node:url';

/** Longest address SMTP allows (RFC 5321 path limit). */
export const MAX_EMAIL_LENGTH = 254;
const MAX_LOCAL_LENGTH = 64;
const MAX_DOMAIN_LENGTH = 253;

/** What reading an address found: the one form it is stored, compared and mailed in, or why not. */
export type EmailParse = { ok: true; email: string } | { ok: false; reason: string };

// A dot-atom of RFC 5322 in ASCII: no comments, quotes, lists, display names or routes, nothing a
// mailer could read as more than one address or another one.
const LOCAL = /^[a-z0-9!#$%&'*+/=?^_`{|}~-]+(\.[a-z0-9!#$%&'*+/=?^_`{|}~-]+)*$/i;
// Invisible, control, private-use, unassigned and direction-changing characters, and every space.
const INVISIBLE = /[\p{Cc}\p{Cf}\p{Co}\p{Cs}\p{Cn}\p{Z}\p{Default_Ignorable_Code_Point}]/u;
// What a domain may be written in before IDNA: letters, marks, digits, dots and hyphens (no `%`,
// which the URL host parser would decode, no `_`, brackets or IP literals).
const DOMAIN_INPUT = /^[\p{L}\p{M}\p{Nd}.-]+$/u;
const ASCII_LABEL = /^[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?$/;

// Scripts a domain label may be written in, each alone or in the mixes UTS #39's "highly
// restrictive" level allows (Japanese, Chinese and Korean with Latin). A label mixing others
// (Latin with Cyrillic `о`, say) is the look-alike of another and is refused.
const SCRIPTS = [
  'Latin', 'Greek', 'Cyrillic', 'Armenian', 'Hebrew', 'Arabic', 'Syriac', 'Thaana', 'Devanagari', 'Bengali', 'Gurmukhi', 'Gujarati', 'Oriya', 'Tamil',
  'Telugu', 'Kannada', 'Malayalam', 'Sinhala', 'Thai', 'Lao', 'Tibetan', 'Myanmar', 'Georgian', 'Hangul', 'Ethiopic', 'Khmer', 'Mongolian', 'Hiragana',
  'Katakana', 'Bopomofo', 'Han',
].map((name) => ({ name, test: new RegExp(`\\p{Script_Extensions=${name}}`, 'u') }));
const SCRIPT_MIXES = [...SCRIPTS.map((s) => [s.name]), ['Latin', 'Han', 'Hiragana', 'Katakana'], ['Latin', 'Han', 'Bopomofo'], ['Latin', 'Han', 'Hangul']];
// Digits, hyphens and combining marks shared by every script.
const ANY_SCRIPT = /^[\p{Script=Common}\p{Script=Inherited}]$/u;

const refuse = (reason: string): EmailParse => ({ ok: false, reason });
const codePoint = (ch: string): string => `U+${ch.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}`;

/** Whether one label (Unicode form) is written in one script, or in one allowed mix. */
function singleScript(label: string): boolean {
  const sets = [...label].filter((ch) => !ANY_SCRIPT.test(ch)).map((ch) => SCRIPTS.filter((s) => s.test.test(ch)).map((s) => s.name));
  return SCRIPT_MIXES.some((mix) => sets.every((names) => names.some((name) => mix.includes(name))));
}

function parseDomain(raw: string): { ok: true; ascii: string } | { ok: false; reason: string } {
  if (!DOMAIN_INPUT.test(raw)) return { ok: false, reason: 'the domain may hold only letters, digits, hyphens and dots' };
  const ascii = domainToASCII(raw);
  const labels = ascii.split('.');
  if (ascii === '' || ascii.length > MAX_DOMAIN_LENGTH || labels.length < 2 || !labels.every((l) => ASCII_LABEL.test(l)) || /^[0-9]+$/.test(labels.at(-1)!)) {
    return { ok: false, reason: 'the domain is not a domain name such as example.com' };
  }
  // Checked on the Unicode form too: an `xn--` label spelled out by the sender is decoded here.
  const unicode = domainToUnicode(ascii);
  const hidden = INVISIBLE.exec(unicode)?.[0];
  if (hidden !== undefined) return { ok: false, reason: `the domain holds an invisible or direction-changing character (${codePoint(hidden)})` };
  if (!DOMAIN_INPUT.test(unicode)) return { ok: false, reason: 'the domain may hold only letters, digits, hyphens and dots' };
  const mixed = unicode.split('.').find((label) => !singleScript(label));
  if (mixed !== undefined) return { ok: false, reason: `the domain label ${mixed} mixes scripts (the look-alike of another name)` };
  return { ok: true, ascii };
}

/**
 * Reads an email address the one way every path does (sign-up, sign-in, admin API, CLI): a plain
 * `local@domain`, ends trimmed of ASCII white space. The local part is an ASCII dot-atom, lower-cased;
 * the domain goes through IDNA (UTS #46) to its lower-case ASCII form, each label in one script.
 * Invisible, control and bidi characters are refused anywhere. `+tags` are kept: `ada+ci@x` is an
 * address of its own. The result is what is stored, compared and handed to the mailer as it is.
 */
export function parseEmail(value: string): EmailParse {
  const text = value.replace(/^[ \t\r\n]+|[ \t\r\n]+$/g, '');
  if (text.length > MAX_EMAIL_LENGTH * 4) return refuse(`an address is at most ${MAX_EMAIL_LENGTH} characters`);
  const hidden = INVISIBLE.exec(text)?.[0];
  if (hidden !== undefined) return refuse(`it holds an invisible, space, control or direction-changing character (${codePoint(hidden)})`);
  const at = text.indexOf('@');
  if (at === -1 || at !== text.lastIndexOf('@')) return refuse('it must hold exactly one @');
  const local = text.slice(0, at);
  if (local.length === 0 || local.length > MAX_LOCAL_LENGTH || !LOCAL.test(local)) {
    return refuse(`the part before @ is at most ${MAX_LOCAL_LENGTH} ASCII letters, digits and ! # $ % & ' * + - / = ? ^ _ \` { | } ~, with single dots between them (no quotes, comments, spaces or lists)`);
  }
  const domain = parseDomain(text.slice(at + 1));
  if (!domain.ok) return domain;
  const email = `${local.toLowerCase()}@${domain.ascii}`;
  return email.length > MAX_EMAIL_LENGTH ? refuse(`an address is at most ${MAX_EMAIL_LENGTH} characters`) : { ok: true, email };
}

/** The address as {@link parseEmail} reads it, or null when the string is not one. */
export function normaliseEmail(value: string): string | null {
  const parsed = parseEmail(value);
  return parsed.ok ? parsed.email : null;
}
