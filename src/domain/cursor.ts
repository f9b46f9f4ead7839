import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { invalidCursor } from '../errors/error-factories.js';

/**
 * Opaque, tamper-evident page cursors: base64url JSON of where the page ended plus an HMAC
 * (SHA-256) over it under the gateway's cursor secret (GATEWAY_CURSOR_SECRET, else a secret made
 * at start, so cursors then last as long as the process). Each cursor names its list, so one
 * list's cursor is refused by another. A forged, altered or foreign cursor is a 400.
 */
export class CursorCodec {
  private readonly secret: Buffer;

  constructor(secret: string | undefined) {
    this.secret = secret ? Buffer.from(secret, 'utf8') : randomBytes(32);
  }

  private mac(body: string): string {
    return createHmac('sha256', this.secret).update(body).digest('base64url');
  }

  encode(list: string, position: unknown): string {
    const body = Buffer.from(JSON.stringify({ l: list, p: position })).toString('base64url');
    return `${body}.${this.mac(body)}`;
  }

  decode<T>(list: string, cursor: string, parameter = 'cursor', code = 'invalid_cursor'): T {
    const refuse = () => invalidCursor(parameter, `'${parameter}' is not a cursor this gateway issued for this list; start again without it.`, code);
    const [body, mac, extra] = cursor.split('.');
    if (!body || !mac || extra !== undefined) throw refuse();
    const expected = Buffer.from(this.mac(body));
    const given = Buffer.from(mac);
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) throw refuse();
    let parsed: { l?: unknown; p?: unknown };
    try {
      parsed = JSON.parse(Buffer.from(body, 'base64url').toString('utf8')) as { l?: unknown; p?: unknown };
    } catch {
      throw refuse();
    }
    if (parsed.l !== list || parsed.p === undefined) throw refuse();
    return parsed.p as T;
  }
}
