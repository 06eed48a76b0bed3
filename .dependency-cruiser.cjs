/**
 * The gateway's layers (gateway/README.md, "Layers"): imports run downward only, audiences and
 * store engines do not reach into one another, and nothing runs in a circle. `npm test` runs this
 * (pnpm lint:deps), and gateway/test/layers.test.ts shows each rule refusing a back-up import.
 */
const SRC = '^gateway/src/';
const AUDIENCES = '(api|admin|dashboard|portal|docs|billing|events|console)';
const ENGINES = '(memory|sqlite|redis)';

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      comment: 'Modules import one another in one direction only.',
      severity: 'error',
      from: {},
      to: { circular: true },
    },
    {
      name: 'domain-is-pure',
      comment: 'Domain rules import nothing of the gateway but other domain rules.',
      severity: 'error',
      from: { path: `${SRC}domain/` },
      to: { path: SRC, pathNot: `${SRC}domain/` },
    },
    {
      name: 'config-reads-domain-only',
      comment: 'Config is parsed once, into domain types; it knows no store, route or page.',
      severity: 'error',
      from: { path: `${SRC}config\\.ts$` },
      to: { path: SRC, pathNot: `${SRC}domain/` },
    },
    {
      name: 'data-below-http',
      comment: 'Stores and mail know nothing of HTTP, audiences or the composition root.',
      severity: 'error',
      from: { path: `${SRC}(data|mail)/` },
      to: { path: SRC, pathNot: [`${SRC}(data|mail|domain)/`, `${SRC}config\\.ts$`] },
    },
    {
      name: 'engines-apart',
      comment: 'An engine is one folder: it uses the interfaces above it, not another engine (the SQLite store is the memory store written through to a file).',
      severity: 'error',
      from: { path: `${SRC}data/(sqlite|redis)/` },
      to: { path: `${SRC}data/${ENGINES}/`, pathNot: [`${SRC}data/$1/`, `${SRC}data/memory/`] },
    },
    {
      name: 'memory-engine-alone',
      comment: 'The memory engine, which the SQLite one builds on, uses no other engine.',
      severity: 'error',
      from: { path: `${SRC}data/memory/` },
      to: { path: `${SRC}data/${ENGINES}/`, pathNot: `${SRC}data/memory/` },
    },
    {
      name: 'interfaces-above-engines',
      comment: 'The store interfaces and what engines share do not know the engines; open-stores.ts picks one.',
      severity: 'error',
      from: { path: `${SRC}data/[^/]+\\.ts$`, pathNot: `${SRC}data/open-stores\\.ts$` },
      to: { path: `${SRC}data/${ENGINES}/` },
    },
    {
      name: 'http-below-audiences',
      comment: 'Shared HTTP pieces serve every audience and import none.',
      severity: 'error',
      from: { path: `${SRC}http/` },
      to: { path: SRC, pathNot: [`${SRC}(http|data|mail|domain)/`, `${SRC}config\\.ts$`] },
    },
    {
      name: 'audiences-apart',
      comment: 'An audience does not reach into another; what two share moves down to http/ or is passed in.',
      severity: 'error',
      from: { path: `${SRC}${AUDIENCES}/` },
      to: { path: `${SRC}${AUDIENCES}/`, pathNot: `${SRC}$1/` },
    },
    {
      name: 'composition-on-top',
      comment: 'Only the composition (main.ts, cli.ts, app.ts and what they wire) imports the files at the top of src.',
      severity: 'error',
      from: { path: `${SRC}[^/]+/` },
      to: { path: `${SRC}[^/]+\\.ts$`, pathNot: `${SRC}config\\.ts$` },
    },
    {
      name: 'known-rooms',
      comment: 'Every folder of gateway/src is a layer above; a new one is added to these rules with its place.',
      severity: 'error',
      from: { path: SRC, pathNot: [`${SRC}[^/]+\\.ts$`, `${SRC}(domain|data|mail|http|${AUDIENCES.slice(1, -1)})/`] },
      to: {},
    },
    {
      name: 'code-never-imports-tests',
      comment: 'Running code never loads a test, test support or bench file.',
      severity: 'error',
      from: { path: '^(gateway|services/[^/]+|packages/[^/]+)/src/', pathNot: '\\.test\\.ts$' },
      to: { path: '^(gateway|services/[^/]+|packages/[^/]+)/(test|bench)/' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: ['node_modules', '\\.test\\.ts$', '/dist/'] },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { conditionNames: ['development', 'import', 'require', 'node', 'default'] },
  },
};
