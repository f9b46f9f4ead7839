import type { AppOptions } from '../../src/app.js';
import type { ExecutionStores } from '../../src/execution/execution-stores.js';
import type { ExecutionVenue } from '../../src/execution/venues/execution-venue.js';
import type { GatewayStores } from '../../src/stores/gateway-stores.js';
import { sharedStateUnavailable } from '../../src/errors/availability-refusals.js';

/** `before`: the store never sees the call; `lost`: the store applies it, then the answer is lost. */
export type FaultMode = 'before' | 'lost';

export interface StoreFault {
  store: keyof ExecutionStores;
  method: string;
  /** Which call of that method fails, counted from when the fault is armed (1 = the next). */
  nth: number;
  mode: FaultMode;
  /** Every call of the execution stores fails from then on, until `heal()`: an outage, not a blip. */
  outage?: boolean;
}

/**
 * Fault injection for the money path through buildApp's `faults` option: wraps the real stores
 * (memory, SQLite or Redis) so a chosen call fails as an unreachable store does, and the real
 * venues so a submission throws. Nothing is mocked: every other call reaches the real store.
 */
export class Faults {
  private armed: (StoreFault & { seen: number }) | undefined;
  private down = false;
  private venueThrows = 0;
  private venueDelay: { ms: number; during?: () => Promise<unknown> } | undefined;
  /** Calls that failed (for assertions that the fault really fired). */
  fired = 0;

  arm(fault: StoreFault): void {
    this.armed = { ...fault, seen: 0 };
  }

  /** The next `count` venue submissions throw (a venue that errors or times out). */
  failVenue(count = 1): void {
    this.venueThrows = count;
  }

  /** The next venue submission answers `ms` late, running `during` meanwhile (a reconciler pass, say). */
  slowVenue(ms: number, during?: () => Promise<unknown>): void {
    this.venueDelay = { ms, ...(during ? { during } : {}) };
  }

  heal(): void {
    this.armed = undefined;
    this.down = false;
    this.venueThrows = 0;
    this.venueDelay = undefined;
  }

  get options(): NonNullable<AppOptions['faults']> {
    return {
      stores: (stores: GatewayStores) => ({ ...stores, execution: this.wrapStores(stores.execution) }),
      venues: (venues) => new Map([...venues].map(([id, v]) => [id, this.wrapVenue(v)])),
    };
  }

  private wrapStores(stores: ExecutionStores): ExecutionStores {
    const wrapped = {} as Record<string, unknown>;
    for (const [name, store] of Object.entries(stores)) wrapped[name] = this.wrapStore(name as keyof ExecutionStores, store as object);
    return wrapped as unknown as ExecutionStores;
  }

  private wrapStore(name: keyof ExecutionStores, store: object): object {
    return new Proxy(store, {
      get: (target, prop, receiver) => {
        const value = Reflect.get(target, prop, receiver) as unknown;
        if (typeof value !== 'function') return value;
        return async (...args: unknown[]) => {
          if (this.down && name !== 'walletSessions') throw sharedStateUnavailable();
          const fault = this.armed;
          if (fault && fault.store === name && fault.method === prop && ++fault.seen === fault.nth) {
            this.fired++;
            if (fault.outage) this.down = true;
            this.armed = undefined;
            if (fault.mode === 'lost') await (value as (...a: unknown[]) => Promise<unknown>).apply(target, args);
            throw sharedStateUnavailable();
          }
          return (value as (...a: unknown[]) => Promise<unknown>).apply(target, args);
        };
      },
    });
  }

  private wrapVenue(venue: ExecutionVenue): ExecutionVenue {
    return new Proxy(venue, {
      get: (target, prop, receiver) => {
        const value = Reflect.get(target, prop, receiver) as unknown;
        if (prop !== 'fill' || typeof value !== 'function') return typeof value === 'function' ? value.bind(target) : value;
        return async (...args: Parameters<ExecutionVenue['fill']>) => {
          const delay = this.venueDelay;
          if (delay) {
            this.venueDelay = undefined;
            this.fired++;
            await Promise.all([new Promise((r) => setTimeout(r, delay.ms)), delay.during?.()]);
          }
          if (this.venueThrows > 0) {
            this.venueThrows--;
            this.fired++;
            throw new Error('venue timed out');
          }
          return target.fill(...args);
        };
      },
    });
  }
}
