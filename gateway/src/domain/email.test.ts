import fc from 'fast-check';
import { MAX_EMAIL_LENGTH, normaliseEmail, parseEmail } from './email';

// What an accepted address is made of: an ASCII dot-atom, an @, and an ASCII (A-label) domain.
const STORED = /^[a-z0-9!#$%&'*+/=?^_`{|}~-]+(\.[a-z0-9!#$%&'*+/=?^_`{|}~-]+)*@([a-z0-9]([a-z0-9-]*[a-z0-9])?\.)+[a-z0-9-]*[a-z][a-z0-9-]*$/;
// Characters that show as nothing, or turn the text around it.
const INVISIBLES = ['\u200b', '\u200c', '\u200d', '\u2060', '\ufeff', '\u00ad', '\u200e', '\u200f', '\u061c', '\u202a', '\u202b', '\u202c', '\u202d', '\u202e', '\u2066', '\u2067', '\u2068', '\u2069', '\u180e', '\u3164', '\u034f', '\u00a0', '\u2028', '\u0000', '\u007f', '\ufe0f'];
// Latin letters and the Cyrillic or Greek letters drawn the same.
const HOMOGLYPHS: Record<string, string> = { a: '\u0430', c: '\u0441', e: '\u0435', o: '\u043e', p: '\u0440', x: '\u0445', y: '\u0443', i: '\u0456', s: '\u0455', n: '\u03b7' };

describe('parseEmail', () => {
  it.each([
    ['a comment', 'ceo(x)@corp.example'],
    ['a quoted local part', '"ceo"@corp.example'],
    ['a semicolon list', 'a;ceo@corp.example'],
    ['a comma list', 'a,b@evil.example'],
    ['a display name', 'Ceo <ceo@corp.example>'],
    ['a group', 'team: ceo@corp.example;'],
    ['two @', 'ceo@evil.example@corp.example'],
    ['a source route', '@evil.example:ceo@corp.example'],
    ['an IP literal', 'ceo@[10.0.0.1]'],
    ['an IPv4 domain', 'ceo@127.0.0.1'],
    ['a domain the URL parser would read as a number', 'ceo@0x7f.1'],
    ['a percent-encoded domain', 'ceo@corp%2eexample'],
    ['a single-label domain', 'ceo@localhost'],
    ['an underscore in the domain', 'ceo@my_corp.example'],
    ['a leading dot', '.ceo@corp.example'],
    ['two dots in a row', 'c..eo@corp.example'],
    ['a space inside', 'ceo @corp.example'],
    ['a zero-width space', 'c\u200beo@corp.example'],
    ['a right-to-left override', 'ceo@corp\u202e.example'],
    ['a Cyrillic letter in the local part', 'ce\u043e@corp.example'],
    ['a Cyrillic letter in a Latin domain label', 'ceo@c\u043erp.example'],
    ['the same, spelled as its A-label', 'ceo@xn--ggle-55da.com'],
    ['an emoji domain', 'ceo@xn--ls8h.la'],
    ['nothing before @', '@corp.example'],
    ['a local part over 64 characters', `${'a'.repeat(65)}@corp.example`],
    ['an address over 254 characters', `ceo@${'a'.repeat(60)}.${'b'.repeat(60)}.${'c'.repeat(60)}.${'d'.repeat(60)}.example`],
  ])('when the address holds %s, then it is refused with a reason', (_what, value) => {
    const parsed = parseEmail(value);
    expect(parsed.ok).toBe(false);
    expect(parsed.ok ? '' : parsed.reason).not.toBe('');
  });

  it.each([
    ['upper case and white space at the ends', ' Ada.Lovelace@Example.COM\n', 'ada.lovelace@example.com'],
    ['a +tag, kept: an address of its own', 'ada+ci@example.com', 'ada+ci@example.com'],
    ['every dot-atom character', "a!#$%&'*+/=?^_`{|}~-z@example.com", "a!#$%&'*+/=?^_`{|}~-z@example.com"],
    ['a Unicode domain, stored as its A-label', 'ada@B\u00fccher.example', 'ada@xn--bcher-kva.example'],
    ['the same A-label spelled out', 'ada@xn--bcher-kva.EXAMPLE', 'ada@xn--bcher-kva.example'],
    ['full-width Latin letters (mapped by IDNA)', 'ada@\uff45xample.com', 'ada@example.com'],
    ['a Cyrillic domain under a Latin TLD', 'ada@\u043f\u0440\u0438\u043c\u0435\u0440.com', 'ada@xn--e1afmkfd.com'],
    ['Japanese mixing Han and kana in one label', 'ada@\u4f8b\u3048.jp', 'ada@xn--r8jz45g.jp'],
  ])('when the address has %s, then it is stored in one form', (_what, value, stored) => {
    expect(parseEmail(value)).toEqual({ ok: true, email: stored });
    expect(normaliseEmail(value)).toBe(stored);
  });

  it('when generated RFC addresses are read, then each is accepted as itself in lower case, and reads back unchanged', () => {
    fc.assert(
      fc.property(fc.emailAddress(), (address) => {
        fc.pre(address.length <= MAX_EMAIL_LENGTH);
        const parsed = parseEmail(address);
        expect(parsed).toEqual({ ok: true, email: address.toLowerCase() });
        expect(parseEmail(address.toUpperCase())).toEqual(parsed);
      }),
      { numRuns: 500 },
    );
  });

  it('when any text is read, then what is accepted is a plain ASCII address with no invisible character, and reading it again gives it back', () => {
    const text = fc.oneof(fc.string({ unit: 'grapheme', maxLength: 60 }), fc.emailAddress(), fc.tuple(fc.emailAddress(), fc.string({ unit: 'binary', maxLength: 4 }), fc.nat()).map(([a, s, at]) => a.slice(0, at % (a.length + 1)) + s + a.slice(at % (a.length + 1))));
    fc.assert(
      fc.property(text, (value) => {
        const parsed = parseEmail(value);
        if (!parsed.ok) return;
        expect(parsed.email).toMatch(STORED);
        expect(parsed.email.length).toBeLessThanOrEqual(MAX_EMAIL_LENGTH);
        expect(parseEmail(parsed.email)).toEqual(parsed);
      }),
      { numRuns: 2000 },
    );
  });

  it('when an invisible, control or direction-changing character is put anywhere in a valid address, then it is refused', () => {
    fc.assert(
      fc.property(fc.emailAddress(), fc.constantFrom(...INVISIBLES), fc.nat(), (address, hidden, at) => {
        fc.pre(address.length < MAX_EMAIL_LENGTH);
        const i = at % (address.length + 1);
        expect(parseEmail(address.slice(0, i) + hidden + address.slice(i)).ok).toBe(false);
      }),
      { numRuns: 1000 },
    );
  });

  it('when one letter of a Latin domain label is swapped for its Cyrillic or Greek look-alike, then it is refused, in Unicode and as an A-label', () => {
    const label = fc.stringMatching(/^[a-z]{2,12}$/).filter((l) => [...l].some((ch) => ch in HOMOGLYPHS));
    fc.assert(
      fc.property(label, fc.nat(), (plain, pick) => {
        const at = [...plain].map((ch, i) => (ch in HOMOGLYPHS ? i : -1)).filter((i) => i >= 0);
        const i = at[pick % at.length]!;
        const spoofed = plain.slice(0, i) + HOMOGLYPHS[plain[i]!] + plain.slice(i + 1);
        // A label of look-alikes only is one script: only a mixed one is certainly a spoof.
        fc.pre([...spoofed].some((ch) => /[a-z]/.test(ch)));
        expect(parseEmail(`ceo@${spoofed}.example`).ok).toBe(false);
        expect(parseEmail(`ceo@${new URL(`http://${spoofed}.example`).hostname}`).ok).toBe(false);
      }),
      { numRuns: 300 },
    );
  });
});
