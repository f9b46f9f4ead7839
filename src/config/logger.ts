import { pino, type Logger } from 'pino';

/**
 * JSON lines on stdout. Writes are asynchronous (sonic-boom coalesces lines while a write is in
 * flight, so an access line per request costs no syscall of its own under load); pino flushes
 * what is pending when the process exits.
 */
export function createLogger(level: string): Logger {
  return pino({ level, base: { service: 'trading-gateway' } }, pino.destination({ dest: 1, sync: false }));
}
