import { afterAll, beforeAll } from 'vitest';

/** For the calling test file: a fetch to any host but 127.0.0.1 throws, so nothing a test starts can leave the machine. */
export function loopbackOnly(): void {
  const realFetch = globalThis.fetch;
  beforeAll(() => {
    globalThis.fetch = ((input: string | URL | Request, init?: RequestInit) => {
      const url = new URL(input instanceof Request ? input.url : String(input));
      if (url.hostname !== '127.0.0.1') throw new Error(`test tried to dial ${url.href}`);
      return realFetch(input, init);
    }) as typeof fetch;
  });
  afterAll(() => {
    globalThis.fetch = realFetch;
  });
}
