import type { ExecutionStores } from '../execution/execution-stores.js';
import type { GatewayStores } from './gateway-stores.js';

/** Called once per store call with its store, method, duration and whether it succeeded. */
export type StoreTiming = (store: string, method: string, seconds: number, ok: boolean) => void;

/** A store whose every method call is timed; `this` stays the store itself. */
function timed<T extends object>(name: string, store: T, observe: StoreTiming): T {
  // Keyed by the function itself, so a method replaced on the store is timed as replaced.
  const wrappers = new WeakMap<object, unknown>();
  return new Proxy(store, {
    get(target, property, receiver) {
      const value: unknown = Reflect.get(target, property, receiver);
      if (typeof value !== 'function' || typeof property !== 'string') return value;
      let wrapper = wrappers.get(value);
      if (!wrapper) {
        const method = value as (...args: unknown[]) => unknown;
        wrapper = (...args: unknown[]) => {
          const t0 = performance.now();
          const done = (ok: boolean) => observe(name, property, (performance.now() - t0) / 1000, ok);
          let result: unknown;
          try {
            result = method.apply(target, args);
          } catch (err) {
            done(false);
            throw err;
          }
          if (result instanceof Promise)
            return result.then(
              (v: unknown) => (done(true), v),
              (err: unknown) => {
                done(false);
                throw err;
              },
            );
          done(true);
          return result;
        };
        wrappers.set(value, wrapper);
      }
      return wrapper;
    },
  });
}

/**
 * The identity and execution stores with every call timed (the money path's and authentication's
 * store latency, for /metrics). The market-data stores on the public read path are left as they are.
 */
export function timedStores(stores: GatewayStores, observe: StoreTiming): GatewayStores {
  const execution = Object.fromEntries(
    Object.entries(stores.execution).map(([name, store]) => [name, timed(name, store as object, observe)]),
  ) as unknown as ExecutionStores;
  return { ...stores, identities: timed('identities', stores.identities, observe), execution };
}
