import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import { basename, join } from 'node:path';

/**
 * Recorded venue answers, one JSON file each, in the format of the shared fixtures:
 * `{"source": {...provenance...}, "request": ..., "status": <int>, "response": ...}`.
 * Shared by every venue's replay fake and by a future `npm run record`.
 */

/** Where a recording came from. `repo`/`path`/`commit` for captures copied from a repository, `recordedAt` when known. */
export interface RecordingSource {
  repo?: string;
  path?: string;
  commit?: string;
  recordedAt?: string | null;
  method?: string;
  url?: string;
  capture?: string;
  license?: string;
  note?: string;
  [key: string]: unknown;
}

export interface Recording {
  source: RecordingSource;
  /** The request as sent (for Hyperliquid the POST /info body). */
  request: unknown;
  /** The HTTP status of the recorded answer. */
  status: number;
  /** The recorded body, parsed; numbers that the venue sends as strings stay strings. */
  response: unknown;
}

/** A recording with the name of the file it was read from. */
export interface LoadedRecording extends Recording {
  file: string;
}

export class RecordingFormatError extends Error {
  constructor(
    readonly file: string,
    detail: string,
  ) {
    super(`${file}: not a recording (${detail})`);
    this.name = 'RecordingFormatError';
  }
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Why `value` is not a recording, or undefined when it is one. */
function recordingProblem(value: unknown): string | undefined {
  if (!isObject(value)) return 'not a JSON object';
  if (!isObject(value.source)) return '"source" must be an object';
  if (!('request' in value)) return '"request" is missing';
  if (typeof value.status !== 'number' || !Number.isInteger(value.status) || value.status < 100 || value.status > 599) {
    return '"status" must be an HTTP status code';
  }
  if (!('response' in value)) return '"response" is missing';
  return undefined;
}

export function isRecording(value: unknown): value is Recording {
  return recordingProblem(value) === undefined;
}

export interface LoadOptions {
  /** Skip `.json` files that are not recordings (e.g. ccxt static files with `entries`) instead of throwing. */
  skipInvalid?: boolean;
}

/** Reads every `*.json` recording in `dir` (not recursive), sorted by file name. */
export async function loadRecordings(dir: string, options: LoadOptions = {}): Promise<LoadedRecording[]> {
  const names = (await readdir(dir)).filter((name) => name.endsWith('.json')).sort();
  const recordings: LoadedRecording[] = [];
  for (const file of names) {
    const text = await readFile(join(dir, file), 'utf8');
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch (error) {
      if (options.skipInvalid) continue;
      throw new RecordingFormatError(file, `invalid JSON: ${(error as Error).message}`);
    }
    const problem = recordingProblem(value);
    if (problem !== undefined) {
      if (options.skipInvalid) continue;
      throw new RecordingFormatError(file, problem);
    }
    recordings.push({ ...(value as Recording), file });
  }
  return recordings;
}

/** The value at a dotted path (`req.coin`), or undefined. */
function at(value: unknown, path: string): unknown {
  let current = value;
  for (const key of path.split('.')) {
    if (!isObject(current)) return undefined;
    current = current[key];
  }
  return current;
}

function sameJson(a: unknown, b: unknown): boolean {
  // null and an absent parameter mean the same to the venues recorded here (`endTime: null` = no end).
  if ((a === undefined || a === null) && (b === undefined || b === null)) return true;
  return JSON.stringify(a) === JSON.stringify(b);
}

/**
 * Every recording whose request agrees with `request` on each of `fields` (dotted paths, compared as
 * JSON; absent and null are the same). Fields not listed are ignored, so a venue decides which
 * parameters matter: for a Hyperliquid `l2Book` that is `type` and `coin`, not the caller's time.
 */
export function findRecordings(recordings: readonly LoadedRecording[], request: unknown, fields: readonly string[]): LoadedRecording[] {
  return recordings.filter((recording) => fields.every((field) => sameJson(at(recording.request, field), at(request, field))));
}

/** The first recording (in file-name order) that answers `request`; see {@link findRecordings}. */
export function findRecording(recordings: readonly LoadedRecording[], request: unknown, fields: readonly string[]): LoadedRecording | undefined {
  return findRecordings(recordings, request, fields)[0];
}

export interface WriteOptions {
  /** Replace an existing file of that name (default false: refuse). */
  overwrite?: boolean;
}

/**
 * Writes one recording as `dir/file` (2-space JSON and a final newline), creating `dir`. The file
 * name must be a plain `*.json` name; an existing file is kept unless `overwrite` is set.
 */
export async function writeRecording(dir: string, file: string, recording: Recording, options: WriteOptions = {}): Promise<string> {
  if (basename(file) !== file || !file.endsWith('.json')) throw new RecordingFormatError(file, 'the file name must be a plain *.json name');
  const { source, request, status, response } = recording;
  const clean: Recording = { source, request, status, response };
  const problem = recordingProblem(clean);
  if (problem !== undefined) throw new RecordingFormatError(file, problem);
  await mkdir(dir, { recursive: true });
  const path = join(dir, file);
  await writeFile(path, JSON.stringify(clean, null, 2) + '\n', { flag: options.overwrite ? 'w' : 'wx' });
  return path;
}
