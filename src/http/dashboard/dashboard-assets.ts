import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { dirname, extname, join, normalize, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { errorHeaders, errorResponse } from '../errors/error-response.js';

/** The live dashboard's path: a first-party page, in neither contract document. */
export const DASHBOARD_PATH = '/dashboard';

const TYPES: Readonly<Record<string, string>> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.json': 'application/json; charset=utf-8',
  '.woff2': 'font/woff2',
};

/** The checkout's root: the nearest folder above this file with a package.json (from src/ or dist/src/). */
function projectRoot(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  while (!existsSync(join(dir, 'package.json')) && dirname(dir) !== dir) dir = dirname(dir);
  return dir;
}

/**
 * Serves the dashboard Vite builds into dist/dashboard (npm run build): the page itself is revalidated
 * on every load, the content-hashed files under assets/ are immutable. Files are read once and kept.
 */
export class DashboardAssets {
  private readonly files = new Map<string, Promise<Buffer | undefined>>();

  constructor(private readonly dir = join(projectRoot(), 'dist', 'dashboard')) {}

  /** Whether the request is the dashboard's; true means it is answered. */
  handle(req: IncomingMessage, res: ServerResponse, requestId: string): boolean {
    const path = (req.url ?? '/').split('?')[0] ?? '/';
    if (path !== DASHBOARD_PATH && !path.startsWith(`${DASHBOARD_PATH}/`)) return false;
    res.setHeader('x-request-id', requestId);
    if (req.method !== 'GET') {
      send(res, 405, errorResponse(405, 'method_not_allowed', `${req.method} is not allowed on ${DASHBOARD_PATH}; use GET.`, requestId), {
        allow: 'GET, HEAD',
      });
      return true;
    }
    if (path === DASHBOARD_PATH) {
      res.writeHead(308, { location: `${DASHBOARD_PATH}/`, 'cache-control': 'no-cache' }).end();
      return true;
    }
    const relative = decodeURIComponentSafe(path.slice(DASHBOARD_PATH.length + 1)) || 'index.html';
    const file = normalize(join(this.dir, relative));
    const type = TYPES[extname(file)];
    if (!file.startsWith(this.dir + sep) || !type) return (this.notFound(res, requestId), true);
    void this.read(file).then(
      (body) => {
        if (!body) return this.notFound(res, requestId);
        const immutable = relative.startsWith('assets/');
        res.writeHead(200, {
          'content-type': type,
          'content-length': body.length,
          'cache-control': immutable ? 'public, max-age=31536000, immutable' : 'no-cache',
        });
        res.end(body);
      },
      () => this.notFound(res, requestId),
    );
    return true;
  }

  private read(file: string): Promise<Buffer | undefined> {
    let cached = this.files.get(file);
    if (!cached) {
      cached = readFile(file).catch(() => undefined);
      // Only found files are kept: a build made after start is picked up.
      void cached.then((body) => body ?? this.files.delete(file));
      this.files.set(file, cached);
    }
    return cached;
  }

  private notFound(res: ServerResponse, requestId: string): void {
    const built = existsSync(join(this.dir, 'index.html'));
    const message = built ? 'No such dashboard file.' : 'The dashboard is not built; run npm run build.';
    send(res, 404, errorResponse(404, 'route_not_found', message, requestId));
  }
}

function decodeURIComponentSafe(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return '\0';
  }
}

function send(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  const text = JSON.stringify(body);
  res.writeHead(status, errorHeaders({ ...headers, 'content-length': String(Buffer.byteLength(text)) }));
  res.end(text);
}
