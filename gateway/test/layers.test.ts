import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

const ROOT = path.resolve(__dirname, '../..');
const DEPCRUISE = path.join(ROOT, 'node_modules/.bin/depcruise');

interface Violation {
  rule: { name: string };
  from: string;
  to: string;
}

// Each import a layer rule exists to refuse, with that rule; then imports that are allowed ('-').
const TABLE = readFileSync(path.join(__dirname, 'fixtures/layer-imports.txt'), 'utf8')
  .split('\n')
  .filter((line) => line.trim() && !line.startsWith('#'))
  .map((line) => line.trim().split(/\s+/) as [from: string, to: string, rule: string]);
const REFUSED = TABLE.filter(([, , rule]) => rule !== '-');
const ALLOWED = TABLE.filter(([, , rule]) => rule === '-').map(([from, to]): [string, string] => [from, to]);

/** A throw-away tree of gateway/src files, each importing what the pairs say, cruised with the repository's rules. */
function cruise(pairs: [string, string][]): Promise<Violation[]> {
  const dir = mkdtempSync(path.join(tmpdir(), 'tollgate-layers-'));
  const imports = new Map<string, string[]>();
  for (const [from, to] of pairs) {
    imports.set(from, [...(imports.get(from) ?? []), to]);
    if (!imports.has(to)) imports.set(to, []);
  }
  for (const [file, targets] of imports) {
    const full = path.join(dir, 'gateway/src', file);
    mkdirSync(path.dirname(full), { recursive: true });
    const lines = targets.map((t) => `import '${path.relative(path.dirname(file), t).replace(/^(?!\.)/, './').replace(/\.ts$/, '')}';`);
    writeFileSync(full, `${lines.join('\n')}\nexport const here = 1;\n`);
  }
  writeFileSync(path.join(dir, 'tsconfig.json'), '{}');
  return new Promise((resolve, reject) => {
    execFile(DEPCRUISE, ['gateway/src', '--config', path.join(ROOT, '.dependency-cruiser.cjs'), '--output-type', 'json'], { cwd: dir }, (err, stdout) => {
      rmSync(dir, { recursive: true, force: true });
      try {
        resolve((JSON.parse(stdout) as { summary: { violations: Violation[] } }).summary.violations);
      } catch {
        reject(err ?? new Error(`depcruise printed no JSON: ${stdout.slice(0, 300)}`));
      }
    });
  });
}

describe('the gateway layer rules (.dependency-cruiser.cjs)', () => {
  let violations: Violation[];
  beforeAll(async () => {
    violations = await cruise([...REFUSED.map(([from, to]): [string, string] => [from, to]), ...ALLOWED]);
  }, 30_000);

  it.each(REFUSED)('when %s imports %s, then %s refuses it', (from, to, rule) => {
    // A cycle is reported from whichever of its modules the cruise meets first.
    const ends = new Set([`gateway/src/${from}`, `gateway/src/${to}`]);
    expect(violations.filter((v) => v.rule.name === rule && ends.has(v.from) && (ends.has(v.to) || rule === 'no-circular'))).not.toEqual([]);
  });

  it.each(ALLOWED)('when %s imports %s, then no rule refuses it', (from, to) => {
    expect(violations.filter((v) => v.from === `gateway/src/${from}` && v.to === `gateway/src/${to}`)).toEqual([]);
  });
});
