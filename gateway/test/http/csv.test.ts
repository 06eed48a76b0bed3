import fc from 'fast-check';
import { csvField, toCsv } from '../../src/http/csv';
import { parseCsv } from '../support/csv-reader';

describe('csvField', () => {
  it.each<[string | number | null, string]>([
    ['prod', 'prod'],
    [12, '12'],
    [0, '0'],
    [null, ''],
    ['', ''],
    ['a,b', '"a,b"'],
    ['say "hi"', '"say ""hi"""'],
    ['two\nlines', '"two\nlines"'],
    ['cr\rhere', '"cr\rhere"'],
    [' padded ', '" padded "'],
    ['=HYPERLINK("http://x","y")', '"\'=HYPERLINK(""http://x"",""y"")"'],
    ['+1', "'+1"],
    ['-prod', "'-prod"],
    ['@SUM(A1)', "'@SUM(A1)"],
    ['\tTab', "'\tTab"],
    ['/burger/v1/index/{currency}', '/burger/v1/index/{currency}'],
    ['ключ 🔑', 'ключ 🔑'],
  ])('when the value is %j, then the field is %j', (value, field) => {
    expect(csvField(value)).toBe(field);
  });
});

describe('toCsv', () => {
  it('when any text is written, then an RFC 4180 reader reads back the same cells (formula starts behind an apostrophe)', () => {
    fc.assert(
      fc.property(fc.array(fc.array(fc.oneof(fc.string(), fc.string({ unit: 'grapheme' }), fc.constantFrom('"', ',', '\r\n', '=1+1', ' ', '\n"')), { minLength: 2, maxLength: 2 }), { maxLength: 5 }), (rows) => {
        const read = parseCsv(toCsv(['a', 'b'], rows));
        expect(read).toEqual([['a', 'b'], ...rows.map((r) => r.map((v) => (/^[=+\-@\t\r]/.test(v) ? `'${v}` : v)))]);
      }),
    );
  });
});
