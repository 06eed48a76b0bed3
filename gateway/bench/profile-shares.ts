/** The parts of a call that bench/README.md breaks its cost into, and the code that belongs to each. */
const PARTS: readonly { part: string; code: RegExp }[] = [
  { part: 'proxy core: forwarding to the service', code: /node_modules\/(undici|http-proxy|http-proxy-node16|http-proxy-middleware)\/|\/api\/(upstream-proxy|upstream-forward|hop-by-hop|forwarded-headers)\.js/ },
  { part: 'Express and middleware (the fast path, the screen)', code: /node_modules\/(express|router|body-parser|finalhandler|on-finished|send|serve-static|parseurl|path-to-regexp)\/|\/api\/(fast-path|api-routes|api-call|screen|check-path|cors-policy)\.js|\/data\/service-documents\.js/ },
  { part: 'key parsing and hashing', code: /\/domain\/api-key\.js/ },
  { part: 'admission: the Redis command and its reply', code: /node_modules\/(ioredis|redis-parser|redis-errors|denque|cluster-key-slot|standard-as-callback)\/|\/data\/redis\/|\/data\/memory\// },
  { part: 'the gate: decision, limit headers, refusals', code: /\/api\/gate\.js|\/domain\/(rate-limit-headers|windows|admission|plans)\.js/ },
  { part: 'logging', code: /node_modules\/(pino|sonic-boom|thread-stream|fast-redact|quick-format-unescaped|atomic-sleep|on-exit-leak-free|pino-std-serializers|fast-safe-stringify)\/|\/http\/access-log\.js|envelope\/dist\/(logger|batched-destination|request-logger)\.js/ },
  { part: 'metrics', code: /node_modules\/(prom-client|tdigest|bintrees)\/|\/http\/metrics\.js/ },
  { part: 'usage recording', code: /\/data\/usage-recorder\.js/ },
];
const NODE_CORE = 'node:http, sockets and streams (no gateway frame above)';
const GC = 'garbage collection';
const V8 = 'V8 and native code outside JavaScript ((program))';
const OTHER = 'other';

/** The parts of V8's `.cpuprofile` this reads. */
export interface CpuProfile {
  nodes: { id: number; callFrame: { functionName: string; url: string }; hitCount?: number; children?: number[] }[];
}

/** One part's share of the profile's busy samples, with its costliest functions. */
export interface Share {
  part: string;
  share: number;
  top: string[];
}

/**
 * Each busy sample (idle ones left out) goes to the part of the innermost frame that is the
 * gateway's code or a library it calls: time in `setHeader` called by the gate is the gate's,
 * time in a socket write called by ioredis is the admission's. Samples with no such frame above
 * them are Node's own HTTP and socket work (parsing requests, writing answers), garbage
 * collection, or V8's.
 */
export function profileShares(profile: CpuProfile): Share[] {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const n of profile.nodes) for (const child of n.children ?? []) parent.set(child, n.id);
  const samples = new Map<string, number>();
  const functions = new Map<string, Map<string, number>>();
  let busy = 0;
  for (const node of profile.nodes) {
    const hits = node.hitCount ?? 0;
    if (!hits || node.callFrame.functionName === '(idle)') continue;
    busy += hits;
    const part = partOf(node.id, byId, parent);
    samples.set(part, (samples.get(part) ?? 0) + hits);
    const fn = `${node.callFrame.functionName || '(anonymous)'} ${path(node.callFrame.url)}`;
    const fns = functions.get(part) ?? new Map<string, number>();
    fns.set(fn, (fns.get(fn) ?? 0) + hits);
    functions.set(part, fns);
  }
  return [...samples]
    .sort((a, b) => b[1] - a[1])
    .map(([part, hits]) => ({
      part,
      share: hits / busy,
      top: [...(functions.get(part) ?? [])]
        .sort((a, b) => b[1] - a[1])
        .slice(0, 3)
        .map(([fn, n]) => `${fn} ${((n / busy) * 100).toFixed(1)}%`),
    }));
}

function partOf(id: number, byId: Map<number, CpuProfile['nodes'][number]>, parent: Map<number, number>): string {
  const leaf = byId.get(id)!.callFrame;
  if (leaf.functionName === '(garbage collector)') return GC;
  if (leaf.functionName === '(program)') return V8;
  for (let at: number | undefined = id; at !== undefined; at = parent.get(at)) {
    const url = byId.get(at)!.callFrame.url;
    const found = PARTS.find((p) => p.code.test(url));
    if (found) return found.part;
  }
  return leaf.url.startsWith('node:') || leaf.url === '' ? NODE_CORE : OTHER;
}

/** A frame's file, short: the package and file for a library, the path under dist/ for the gateway. */
function path(url: string): string {
  const lib = /node_modules\/(?:\.pnpm\/[^/]+\/node_modules\/)?((?:@[^/]+\/)?[^/]+)\/.*?([^/]+)$/.exec(url);
  if (lib) return `(${lib[1]} ${lib[2]})`;
  const own = /\/dist\/(.+)$/.exec(url);
  return `(${own ? own[1] : url.replace(/^node:/, '') || 'native'})`;
}

/** The `n` functions with the most samples of their own (idle left out), as shares of the busy ones. */
export function topFunctions(profile: CpuProfile, n: number): { function: string; share: string }[] {
  const hits = new Map<string, number>();
  let busy = 0;
  for (const node of profile.nodes) {
    const count = node.hitCount ?? 0;
    if (!count || node.callFrame.functionName === '(idle)') continue;
    busy += count;
    const fn = `${node.callFrame.functionName || '(anonymous)'} ${path(node.callFrame.url)}`;
    hits.set(fn, (hits.get(fn) ?? 0) + count);
  }
  return [...hits]
    .sort((a, b) => b[1] - a[1])
    .slice(0, n)
    .map(([fn, count]) => ({ function: fn, share: `${((count / busy) * 100).toFixed(1)}%` }));
}
