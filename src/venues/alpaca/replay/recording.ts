import { readFileSync, readdirSync } from 'node:fs';
import { basename, join } from 'node:path';

/**
 * Recorded venue responses in the shared fixture format (../shared/fixtures/README.md): one JSON
 * file per response, `{"source": {...provenance...}, "request": ..., "status": <int>, "response": ...}`.
 * The loader only checks that shape and hands the parts back as recorded; what a response means is
 * up to the fake that serves it. Kept inside the Alpaca replay folder on purpose (another branch has
 * its own loader for Hyperliquid): nothing here is Alpaca-specific, so the two can be folded later.
 */

/** Where a recording came from: repository, path and commit at least (more keys as recorded). */
export interface RecordingSource {
  readonly repo: string;
  readonly path: string;
  readonly commit: string;
  readonly [key: string]: unknown;
}

/** The recorded request line, when the file has one. */
export interface RecordedRequest {
  readonly method: string;
  readonly path: string;
  readonly url?: string;
  readonly query?: string | null;
  readonly [key: string]: unknown;
}

export interface Recording {
  /** File name without `.json`, e.g. `stocks-bars`. */
  readonly name: string;
  readonly source: RecordingSource;
  readonly request: RecordedRequest | null;
  readonly status: number | null;
  readonly response: unknown;
}

export class RecordingFormatError extends Error {
  override name = 'RecordingFormatError';
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Checks one parsed file against the shared format; throws {@link RecordingFormatError} naming the file. */
export function parseRecording(name: string, value: unknown): Recording {
  const fail = (why: string): never => {
    throw new RecordingFormatError(`${name}: ${why}`);
  };
  if (!isObject(value)) return fail('not a JSON object');
  const { source, request, status, response } = value;
  if (!isObject(source)) return fail('no "source" object');
  for (const key of ['repo', 'path', 'commit'] as const) {
    if (typeof source[key] !== 'string' || source[key] === '') fail(`source.${key} is not a non-empty string`);
  }
  if (!('response' in value)) fail('no "response"');
  if (status !== null && !(typeof status === 'number' && Number.isInteger(status))) fail('"status" is not an integer or null');
  if (request !== null) {
    if (!isObject(request)) return fail('"request" is not an object or null');
    if (typeof request.method !== 'string' || typeof request.path !== 'string') fail('request.method / request.path are not strings');
  }
  return {
    name,
    source: source as RecordingSource,
    request: (request as RecordedRequest | null) ?? null,
    status: (status as number | null) ?? null,
    response,
  };
}

/** Reads and checks one recording file. */
export function loadRecording(file: string): Recording {
  const name = basename(file).replace(/\.json$/, '');
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(file, 'utf8'));
  } catch (error) {
    throw new RecordingFormatError(`${name}: ${(error as Error).message}`);
  }
  return parseRecording(name, parsed);
}

/** Every `*.json` recording of a folder, keyed by file name without `.json`. */
export function loadRecordingDir(dir: string): ReadonlyMap<string, Recording> {
  const out = new Map<string, Recording>();
  for (const entry of readdirSync(dir).sort()) {
    if (!entry.endsWith('.json')) continue;
    const recording = loadRecording(join(dir, entry));
    out.set(recording.name, recording);
  }
  return out;
}
