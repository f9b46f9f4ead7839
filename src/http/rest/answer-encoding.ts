import { brotliCompressSync, constants, gzipSync } from 'node:zlib';

export type Coding = 'br' | 'gzip';

/** Bodies below this are sent as they are: compressing them saves less than it costs. */
export const COMPRESS_MIN_BYTES = 1024;
/**
 * Levels for bodies compressed at most once per millisecond (an answer's bytes change every
 * millisecond; the requests of one millisecond share its encoding, see AnswerEncoder).
 * Measured on the 200-market list (100 KB): brotli 3 takes 245 µs for 9.4 KB (4: 560 µs, 9.1 KB),
 * gzip 1 takes 140 µs for 11.6 KB (6: 770 µs, 9.6 KB).
 */
const BROTLI_QUALITY = 3;
const GZIP_LEVEL = 1;

/**
 * The coding a public answer is sent with: br, else gzip, when Accept-Encoding lists it with a
 * non-zero weight (RFC 9110 §12.5.3; `*` counts for the codings not listed), else none (identity).
 */
export function negotiateCoding(acceptEncoding: string | null | undefined): Coding | undefined {
  if (!acceptEncoding) return undefined;
  const weights = new Map<string, boolean>();
  for (const part of acceptEncoding.split(',')) {
    const [raw = '', ...params] = part.trim().toLowerCase().split(';');
    const name = raw === 'x-gzip' ? 'gzip' : raw;
    const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
    weights.set(name, q === undefined || Number(q.slice(2)) > 0);
  }
  // `*` stands only for the codings not listed by name (a `gzip;q=0` stays refused).
  const accepts = (coding: Coding) => weights.get(coding) ?? weights.get('*') ?? false;
  return accepts('br') ? 'br' : accepts('gzip') ? 'gzip' : undefined;
}

/** A public answer as sent: the body (encoded or not) and the headers that say so. */
export interface EncodedAnswer {
  readonly body: Buffer;
  /** Shared between answers: merged into a request's headers, never changed. */
  readonly headers: Readonly<Record<string, string>>;
}

/** One answer's bodies as sent, by coding: made for the first request that asks, reused by the others. */
export type AnswerEncodings = { [coding in Coding | 'identity']?: EncodedAnswer };

// Shared by every answer (and frozen, so a caller that wrote to one would fail, not leak into others).
const VARY_ONLY = Object.freeze({ vary: 'Accept-Encoding' });
const CODING_HEADERS = {
  br: Object.freeze({ vary: 'Accept-Encoding', 'content-encoding': 'br' }),
  gzip: Object.freeze({ vary: 'Accept-Encoding', 'content-encoding': 'gzip' }),
};

/**
 * Encodes public GET answers. An answer's bytes change every millisecond (generatedAt,
 * freshnessMs), so encodings are kept only on the answer itself (`memo`: PublicAnswerCache serves
 * one answer to all the requests of its millisecond); the bodies are bytes, so sending them neither
 * measures nor encodes a string again.
 */
export class AnswerEncoder {
  encode(body: string, acceptEncoding: string | null | undefined, memo?: AnswerEncodings): EncodedAnswer {
    const coding = (body.length >= COMPRESS_MIN_BYTES ? negotiateCoding(acceptEncoding) : undefined) ?? 'identity';
    const kept = memo?.[coding];
    if (kept) return kept;
    const encoded = coding === 'identity' ? { body: Buffer.from(body), headers: VARY_ONLY } : { body: compress(body, coding), headers: CODING_HEADERS[coding] };
    if (memo) memo[coding] = encoded;
    return encoded;
  }
}

function compress(body: string, coding: Coding): Buffer {
  const input = Buffer.from(body);
  return coding === 'br'
    ? brotliCompressSync(input, {
        params: {
          [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
          [constants.BROTLI_PARAM_QUALITY]: BROTLI_QUALITY,
          [constants.BROTLI_PARAM_SIZE_HINT]: input.length,
        },
      })
    : gzipSync(input, { level: GZIP_LEVEL });
}

/** What a 304 for a public GET answer says about its negotiation (it carries no body to encode). */
export const NOT_MODIFIED_VARY = VARY_ONLY;

/** Header records merged in order, later ones winning, except `vary`, whose values are joined. */
export function answerHeaders(...records: Readonly<Record<string, string>>[]): Record<string, string> {
  const merged: Record<string, string> = {};
  for (const record of records) {
    for (const name in record) {
      const value = record[name]!;
      const vary = name === 'vary' ? merged.vary : undefined;
      merged[name] = vary && !vary.toLowerCase().includes(value.toLowerCase()) ? `${vary}, ${value}` : value;
    }
  }
  return merged;
}
