import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { dirname, extname, join, normalize, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { routeNotFound } from '../../errors/error-factories.js';
import { refusalAnswer, type Answer } from '../pipeline/answer.js';
import type { Exchange } from '../pipeline/exchange.js';

/** The live dashboard's path: a first-party page, in neither contract document. */
const DASHBOARD_PATH = '/dashboard';

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

  /** The answer to a GET of the dashboard or one of its files. */
  async answer(exchange: Exchange): Promise<Answer> {
    const { path } = exchange;
    if (path === DASHBOARD_PATH)
      return { status: 308, headers: { location: `${DASHBOARD_PATH}/`, 'cache-control': 'no-cache', 'x-request-id': exchange.requestId }, body: '' };
    const relative = decodeURIComponentSafe(path.slice(DASHBOARD_PATH.length + 1)) || 'index.html';
    const file = normalize(join(this.dir, relative));
    const type = TYPES[extname(file)];
    const body = file.startsWith(this.dir + sep) && type ? await this.read(file) : undefined;
    if (!body || !type) return this.notFound(exchange);
    const immutable = relative.startsWith('assets/');
    return {
      status: 200,
      headers: { 'content-type': type, 'cache-control': immutable ? 'public, max-age=31536000, immutable' : 'no-cache', 'x-request-id': exchange.requestId },
      body,
    };
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

  private notFound(exchange: Exchange): Answer {
    const built = existsSync(join(this.dir, 'index.html'));
    return refusalAnswer(exchange, routeNotFound(built ? 'No such dashboard file.' : 'The dashboard is not built; run npm run build.'));
  }
}

function decodeURIComponentSafe(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return '\0';
  }
}
