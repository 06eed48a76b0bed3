import { mkdirSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { build } from 'esbuild';
import type { Plugin } from 'esbuild';

/**
 * The gateway's entry points (`src/main.ts`, `src/cli.ts`) built once into one CommonJS file each,
 * for the tests' child processes. Through tsx each process spent about 0.8 s of CPU loading and
 * transforming some 200 modules before its first line ran; the built file starts in about 0.15 s,
 * and the tests start several hundred gateways and CLI calls. The code run is the same: each
 * module keeps its own `__dirname`, `__filename` and `require` (the static files and native
 * modules it finds from there), every package outside the workspace is loaded from where the
 * importing module would load it, by Node, with the `development` condition as `pnpm dev` has it.
 * Only `pnpm`/tsx start-up itself is not tested this way: the e2e suite runs `npm start` as it is.
 */

const GATEWAY_DIR = path.resolve(__dirname, '../..');
/** Inside the gateway's node_modules, so a tool that looks for the gateway's packages from the file finds them. */
const OUT_DIR = path.join(GATEWAY_DIR, 'node_modules', '.cache', 'tollgate-test-build');
const ENTRIES = { 'src/main.ts': 'main.cjs', 'src/cli.ts': 'cli.cjs' } as const;
/** What the files were built from, and when. */
export const BUILD_MANIFEST = path.join(OUT_DIR, 'inputs.json');

/**
 * The Node arguments that run an entry point of the gateway (its path from the gateway's
 * directory) from its built file, or undefined for a script that is not one.
 */
export function builtEntryArgs(script: string): string[] | undefined {
  const built = ENTRIES[script as keyof typeof ENTRIES];
  return built ? ['--conditions=development', path.join(OUT_DIR, built)] : undefined;
}

/** Source files that use what CommonJS gives each module, which one bundle would otherwise share. */
const MODULE_LOCALS = /\b(__dirname|__filename|require\.resolve|createRequire)\b/;

/**
 * Loads every workspace module into the bundle, each with its own `__dirname`, `__filename` and
 * `require`, and leaves every other package to Node: resolved now as `require` from the importing
 * file would (with the `development` condition), and loaded from that path when the process runs.
 */
const asTheSourcesRun: Plugin = {
  name: 'as-the-sources-run',
  setup(builder) {
    builder.onResolve({ filter: /^[^./]/ }, async (args) => {
      if (args.path.startsWith('node:') || args.pluginData === 'inner') return undefined;
      if (args.path.startsWith('@tollgate/')) return undefined;
      const found = await builder.resolve(args.path, { kind: 'require-call', resolveDir: args.resolveDir, importer: args.importer, pluginData: 'inner' });
      if (found.errors.length > 0) return { errors: found.errors };
      return { path: found.path, external: true };
    });
    builder.onLoad({ filter: /\.ts$/ }, async (args) => {
      const source = await readFile(args.path, 'utf8');
      if (!MODULE_LOCALS.test(source)) return { contents: source, loader: 'ts' };
      const locals =
        `import { createRequire as __createRequire } from 'node:module';\n` +
        `const __filename = ${JSON.stringify(args.path)};\n` +
        `const __dirname = ${JSON.stringify(path.dirname(args.path))};\n` +
        `const require = __createRequire(__filename);\n`;
      return { contents: locals + source, loader: 'ts' };
    });
  },
};

/** Whether the built files are there and newer than every file they were built from. */
function upToDate(): boolean {
  try {
    const { builtAtMs, inputs } = JSON.parse(readFileSync(BUILD_MANIFEST, 'utf8')) as { builtAtMs: number; inputs: string[] };
    for (const file of Object.values(ENTRIES)) statSync(path.join(OUT_DIR, file));
    return inputs.every((input) => statSync(input).mtimeMs <= builtAtMs);
  } catch {
    return false;
  }
}

/** Writes a file whole or not at all: another test process may be reading or building it too. */
function writeAtomically(file: string, contents: Uint8Array | string): void {
  const temporary = `${file}.${process.pid}.tmp`;
  writeFileSync(temporary, contents);
  renameSync(temporary, file);
}

async function buildEntries(): Promise<void> {
  const builtAtMs = Date.now();
  const result = await build({
    absWorkingDir: GATEWAY_DIR,
    entryPoints: Object.fromEntries(Object.entries(ENTRIES).map(([entry, out]) => [out.replace(/\.cjs$/, ''), entry])),
    outdir: OUT_DIR,
    outExtension: { '.js': '.cjs' },
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    conditions: ['development'],
    plugins: [asTheSourcesRun],
    metafile: true,
    write: false,
    logLevel: 'silent',
  });
  mkdirSync(OUT_DIR, { recursive: true });
  for (const file of result.outputFiles) writeAtomically(file.path, file.contents);
  const inputs = Object.keys(result.metafile.inputs).map((input) => path.resolve(GATEWAY_DIR, input));
  writeAtomically(BUILD_MANIFEST, JSON.stringify({ builtAtMs, inputs }));
}

let building: Promise<void> | undefined;

/**
 * Builds the entry points unless the files built last are newer than all their sources: a test
 * run's global set-up builds them once, and a source edited since (a watch run) is built again.
 */
export function ensureGatewayBuilt(): Promise<void> {
  if (!building && !upToDate()) {
    building = buildEntries().finally(() => {
      building = undefined;
    });
  }
  return building ?? Promise.resolve();
}
