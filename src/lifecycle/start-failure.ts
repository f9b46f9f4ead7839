import type { GatewayApp } from '../app.js';

const STOP_GRACE_MS = 1_000;

/**
 * A start that cannot succeed (bad setting, port in use, data directory locked, Redis
 * unreachable) ends with one line on stderr naming the cause, no stack trace, and exit status 1,
 * after releasing what was already taken (the data directory lock, connections).
 */
export async function failStart(err: unknown, app: GatewayApp | undefined): Promise<never> {
  const message = err instanceof Error ? err.message : String(err);
  process.stderr.write(`gateway: ${message.split('\n')[0]}\n`);
  if (app) {
    const stopped = app.stop().catch(() => undefined);
    await Promise.race([stopped, new Promise((resolve) => setTimeout(resolve, STOP_GRACE_MS).unref())]);
  }
  process.exit(1);
}
