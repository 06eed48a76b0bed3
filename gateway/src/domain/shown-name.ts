const SHOWN_MAX = 64;

/** Whether a character would break a message's one line, or be read as a line break by some readers. */
const unprintable = (code: number): boolean => code < 0x20 || (code >= 0x7f && code <= 0x9f) || code === 0x2028 || code === 0x2029;

/**
 * A name from an operator's file (a catalogue, a plan table) as an error message quotes it: on one
 * line, each unprintable character escaped (`\u000a`), at most 64 characters. A quoted YAML or
 * JSON key may be any text, and the messages are one line that operators' tooling reads.
 */
export function shownName(name: string): string {
  let escaped = '';
  for (const c of name) {
    const code = c.codePointAt(0) ?? 0;
    escaped += unprintable(code) ? `\\u${code.toString(16).padStart(4, '0')}` : c;
  }
  return escaped.length > SHOWN_MAX ? `${escaped.slice(0, SHOWN_MAX - 1)}…` : escaped;
}
