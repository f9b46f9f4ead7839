import { writeSync } from 'node:fs';
import { pino, type Logger, type LoggerOptions } from 'pino';

/**
 * Fields that hold a credential, should an object that carries one (the environment the venues
 * read, the configuration's copy of it, a venue's settings) ever be logged: censored wherever such
 * an object would sit in a log line. The venues keep their keys out of their settings objects in
 * the first place (a Hyperliquid API wallet's key lives only inside its viem account); this is
 * the net under that. Explicit paths only: a wildcard path costs every log line about five times
 * its own time (measured: 2 µs a line without, 12 µs with one leading wildcard).
 */
const SECRET_FIELDS = ['HYPERLIQUID_AGENT_KEY', 'ALPACA_SECRET_KEY', 'GATEWAY_OPERATOR_TOKEN', 'GATEWAY_METRICS_TOKEN', 'GATEWAY_CURSOR_SECRET', 'privateKey'];
const HOLDERS = ['', 'env.', 'venueEnv.', 'config.venueEnv.', 'settings.', 'settings.orders.'];
const LOG_REDACT_PATHS = HOLDERS.flatMap((holder) => SECRET_FIELDS.map((field) => `${holder}${field}`));

/** The gateway logger's options: its level, the service name, and the credential fields censored. */
export function loggerOptions(level: string): LoggerOptions {
  return { level, base: { service: 'trading-gateway' }, redact: { paths: LOG_REDACT_PATHS, censor: '[redacted]' } };
}

/**
 * JSON lines on stdout, written asynchronously: the lines of one turn of the event loop are joined
 * and handed at its end to pino's asynchronous destination (sonic-boom), which writes while the
 * process goes on and coalesces what comes in meanwhile. So under load an access line per request
 * costs neither a syscall nor a destination write of its own.
 *
 * What an exit loses: nothing on SIGTERM/SIGINT (the graceful stop waits for `logsWritten`); on
 * process.exit or an uncaught exception the pending lines are written synchronously; a kill -9, an
 * out-of-memory kill or a power loss loses the lines not yet written (README.md, Operations).
 */
export function createLogger(level: string): Logger {
  return pino(loggerOptions(level), new TurnBatch(STDOUT));
}

const STDOUT = 1;
type AsyncDestination = ReturnType<typeof pino.destination>;

/** What sonic-boom keeps of a write in flight and of the lines behind it (not in its types). */
interface DestinationState {
  _writing: boolean;
  _len: number;
  destroyed: boolean;
}

/** The batches of the live loggers, written out when the process exits. */
const batches = new Set<WeakRef<TurnBatch>>();
let exitHandlerInstalled = false;

/** A pino destination: lines written within one turn of the event loop, handed on as one string at its end. */
class TurnBatch {
  private pending = '';
  private scheduled = false;
  private readonly dest: AsyncDestination;
  private readonly ref = new WeakRef(this);

  constructor(private readonly fd: number) {
    this.dest = pino.destination({ dest: fd, sync: false });
    batches.add(this.ref);
    this.dest.on('close', () => batches.delete(this.ref));
    if (!exitHandlerInstalled) {
      exitHandlerInstalled = true;
      process.on('exit', () => {
        for (const ref of batches) ref.deref()?.writeSync();
      });
    }
  }

  write(line: string): boolean {
    this.pending += line;
    if (!this.scheduled) {
      this.scheduled = true;
      setImmediate(this.handOn);
    }
    return true;
  }

  private readonly handOn = (): void => {
    this.scheduled = false;
    if (this.pending === '') return;
    const lines = this.pending;
    this.pending = '';
    if (!this.state.destroyed) this.dest.write(lines);
  };

  private get state(): DestinationState {
    return this.dest as unknown as DestinationState;
  }

  /** logger.flush(): the batch to the destination, which then writes what it holds. */
  flush(cb?: (err?: Error) => void): void {
    this.handOn();
    this.dest.flush(cb);
  }

  /** Resolves once every line written so far has reached the OS, or after `timeoutMs` when stdout's reader does not read. */
  written(timeoutMs: number): Promise<void> {
    this.handOn();
    const state = this.state;
    if (state.destroyed || (!state._writing && state._len === 0)) return Promise.resolve();
    return new Promise<void>((resolve) => {
      const events = ['drain', 'close', 'error'] as const;
      const done = () => {
        clearTimeout(timer);
        for (const event of events) this.dest.off(event, done);
        resolve();
      };
      const timer = setTimeout(done, timeoutMs);
      for (const event of events) this.dest.once(event, done);
    });
  }

  /** At exit: what the destination holds (pino also does this), then this turn's lines, synchronously. */
  private writeSync(): void {
    if (this.state.destroyed) return;
    try {
      this.dest.flushSync();
    } catch {
      // not ready, or already closed
    }
    if (this.pending === '') return;
    let rest = Buffer.from(this.pending);
    this.pending = '';
    for (let busy = 0; rest.length > 0 && busy < 100;) {
      try {
        rest = rest.subarray(writeSync(this.fd, rest));
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== 'EAGAIN') return;
        busy++;
        Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 10);
      }
    }
  }
}

/**
 * Resolves once every line logged so far has been handed to the OS (at once for a logger that does
 * not write through `createLogger`'s destination), or after `timeoutMs`.
 */
export function logsWritten(logger: Logger, timeoutMs = 5_000): Promise<void> {
  const stream = (logger as unknown as Record<symbol, unknown>)[pino.symbols.streamSym];
  return stream instanceof TurnBatch ? stream.written(timeoutMs) : Promise.resolve();
}
