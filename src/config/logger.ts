import { pino, type Logger, type LoggerOptions } from 'pino';

/**
 * Fields that hold a credential, should an object that carries one (the environment the venues
 * read, a venue's settings) ever be logged: censored at the top level, one level down, and under
 * `venueEnv` (the gateway configuration's copy of the environment). The venues keep their keys out
 * of their settings objects in the first place (a Hyperliquid API wallet's key lives only inside
 * its viem account); this is the net under that.
 */
const SECRET_FIELDS = [
  'HYPERLIQUID_AGENT_KEY',
  'ALPACA_SECRET_KEY',
  'GATEWAY_OPERATOR_TOKEN',
  'GATEWAY_METRICS_TOKEN',
  'GATEWAY_CURSOR_SECRET',
  'privateKey',
  'agentKey',
  'secret',
];

const LOG_REDACT_PATHS = SECRET_FIELDS.flatMap((f) => [f, `*.${f}`, `venueEnv.${f}`, `*.venueEnv.${f}`]);

/** The gateway logger's options: its level, the service name, and the credential fields censored. */
export function loggerOptions(level: string): LoggerOptions {
  return { level, base: { service: 'trading-gateway' }, redact: { paths: LOG_REDACT_PATHS, censor: '[redacted]' } };
}

/**
 * JSON lines on stdout. Writes are asynchronous (sonic-boom coalesces lines while a write is in
 * flight, so an access line per request costs no syscall of its own under load); pino flushes
 * what is pending when the process exits.
 */
export function createLogger(level: string): Logger {
  return pino(loggerOptions(level), pino.destination({ dest: 1, sync: false }));
}
