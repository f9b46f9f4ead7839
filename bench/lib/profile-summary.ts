/**
 * Self time of a V8 `.cpuprofile` (node --cpu-prof), optionally within a time window, grouped by
 * function, by owner (package, node internals, a repository directory) and by cost centre (what
 * part of a request it is). Used by bench/profile-top.ts and by the bench's profile part.
 */
import { readFileSync } from 'node:fs';

export interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
}
export interface Profile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
  startTime: number;
  endTime: number;
}

export interface Summary {
  /** µs of samples that were not idle, within the window. */
  busyUs: number;
  idleUs: number;
  byFunction: [string, number][];
  byOwner: [string, number][];
  byCentre: [string, number][];
}

export function readProfile(file: string): Profile {
  return JSON.parse(readFileSync(file, 'utf8')) as Profile;
}

type Frame = ProfileNode['callFrame'];

/** Path of a frame's file inside the repository (`src/http/x.ts`), or undefined outside it. */
function repositoryPath(url: string, root: string | undefined): string | undefined {
  if (!url.startsWith('file://') || url.includes('/node_modules/')) return undefined;
  const path = url.slice('file://'.length);
  if (root && path.startsWith(root)) return path.slice(root.length).replace(/^\//, '');
  return path;
}

/** Where a frame lives: a package under node_modules, node internals, a repository directory, or V8. */
export function ownerOf({ functionName, url }: Frame, root?: string): string {
  const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url)?.[1];
  if (pkg) return pkg;
  if (url.startsWith('node:')) return 'node internals';
  const repo = repositoryPath(url, root);
  // The first two directories (src/http, resolvers/public): stable enough while files move.
  if (repo !== undefined) return repo.split('/').slice(0, -1).slice(0, 2).join('/') || repo;
  if (url !== '') return url;
  // graphql-jit compiles resolvers with new Function, so its code has no url either.
  return functionName.startsWith('(') ? functionName : 'native or graphql-jit generated';
}

/** Native bindings of the socket layer (libuv stream writes and reads). */
const SOCKET_NATIVES = new Set([
  'writev',
  'writeBuffer',
  'writeUtf8String',
  'writeLatin1String',
  'writeAsciiString',
  'writeUcs2String',
  'shutdown',
  'close',
  'readStart',
  'readStop',
  'onStreamRead',
  'setNoDelay',
  'getpeername',
  'getsockname',
]);

/** What part of serving a request a frame belongs to. */
export function centreOf(frame: Frame, root?: string): string {
  const { functionName, url } = frame;
  const owner = ownerOf(frame, root);
  if (functionName === '(garbage collector)') return 'garbage collection';
  if (functionName === '(program)') return 'V8 / native (program)';
  if (url.startsWith('node:')) {
    if (/node:(_http_|http|net|stream|internal\/(streams|stream_base|http|net|tcp))/.test(url)) return 'HTTP and sockets (node:http, net, streams)';
    return 'node internals (timers, events, promises, other)';
  }
  if (url === '') {
    // Frames without a script: V8 builtins and native bindings, and graphql-jit's generated code (new Function).
    if (SOCKET_NATIVES.has(functionName)) return 'HTTP and sockets (node:http, net, streams)';
    if (functionName === 'stringify' || functionName === 'parse') return 'JSON (native)';
    if (functionName === 'runMicrotasks' || functionName === 'processTicksAndRejections') return 'node internals (timers, events, promises, other)';
    if (functionName.startsWith('RegExp:')) return 'regular expressions (native)';
    if (/Handler$|Resolver|^compiled|^query/.test(functionName)) return 'GraphQL execution (graphql-jit, generated code)';
    return `native: ${functionName || '(anonymous)'}`;
  }
  if (/graphql-jit/.test(owner)) return 'GraphQL execution (graphql-jit, generated code)';
  if (owner === 'graphql' || owner.startsWith('@graphql-tools') || owner.startsWith('@envelop') || owner.startsWith('@pothos'))
    return 'GraphQL library (graphql, envelop, Pothos wrappers)';
  if (
    owner.startsWith('@whatwg-node') ||
    owner === 'graphql-yoga' ||
    owner.startsWith('@graphql-yoga') ||
    owner === 'fets' ||
    owner === 'sofa-api' ||
    owner === 'urlpattern-polyfill'
  )
    return 'Yoga / Sofa / fetch adapter';
  if (owner === 'rate-limiter-flexible') return 'rate limiter';
  if (owner === 'pino' || owner.startsWith('pino') || owner === 'sonic-boom') return 'logging';
  if (owner === 'decimal.js') return 'decimal arithmetic';
  if (owner === 'ws' || owner === 'graphql-ws') return 'WebSocket';
  if (owner === 'redis' || owner.startsWith('@redis')) return 'Redis client';
  if (repositoryPath(url, root) !== undefined) return `gateway code: ${owner}`;
  return `package: ${owner}`;
}

/** Self time per group, within [fromUs, toUs] of the profile's clock (the same monotonic clock as process.hrtime). */
export function summarise(profile: Profile, options: { fromUs?: number; toUs?: number; root?: string } = {}): Summary {
  const nodes = new Map(profile.nodes.map((n) => [n.id, n]));
  const from = options.fromUs ?? -Infinity;
  const to = options.toUs ?? Infinity;
  const selfUs = new Map<number, number>();
  let t = profile.startTime;
  profile.samples.forEach((id, i) => {
    const delta = profile.timeDeltas[i] ?? 0;
    t += delta;
    if (t >= from && t <= to) selfUs.set(id, (selfUs.get(id) ?? 0) + delta);
  });
  const byFunction = new Map<string, number>();
  const byOwner = new Map<string, number>();
  const byCentre = new Map<string, number>();
  let idle = 0;
  let busy = 0;
  for (const [id, us] of selfUs) {
    const frame = nodes.get(id)!.callFrame;
    if (frame.functionName === '(idle)') {
      idle += us;
      continue;
    }
    busy += us;
    const { functionName, url, lineNumber } = frame;
    const where = url ? `${url.replace(/^.*node_modules\//, '').replace(options.root ? `file://${options.root}` : /^$/, '')}:${lineNumber + 1}` : '';
    const key = `${functionName || '(anonymous)'} ${where}`.trim();
    byFunction.set(key, (byFunction.get(key) ?? 0) + us);
    const owner = ownerOf(frame, options.root);
    byOwner.set(owner, (byOwner.get(owner) ?? 0) + us);
    const centre = centreOf(frame, options.root);
    byCentre.set(centre, (byCentre.get(centre) ?? 0) + us);
  }
  const sorted = (m: Map<string, number>) => [...m].sort((a, b) => b[1] - a[1]);
  return { busyUs: busy, idleUs: idle, byFunction: sorted(byFunction), byOwner: sorted(byOwner), byCentre: sorted(byCentre) };
}
