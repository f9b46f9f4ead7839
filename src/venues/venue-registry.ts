import type { ProtocolKind } from '../protocols/protocol.js';
import { aaveV3 } from './aave-v3/aave-venue.js';
import { alpaca } from './alpaca/alpaca-venue.js';
import { hyperliquid } from './hyperliquid/hyperliquid-venue.js';
import { paperEquities } from './paper-equities/paper-equities-venue.js';
import { paperLending } from './paper-lending/paper-lending-venue.js';
import { paperPerps } from './paper-perps/paper-perps-venue.js';
import { paperSwap } from './paper-swap/paper-swap-venue.js';
import { uniswapV3 } from './uniswap-v3/uniswap-venue.js';
import type { CommonVenueSettings, ConfiguredVenue, VenueEnv, VenueModule } from './venue-module.js';

/**
 * Every venue the gateway knows, one line each. For each kind (perpetuals, equities, token swap,
 * lending) the first real venue the environment configures runs; without one, the simulator.
 */
export const VENUES: readonly VenueModule[] = [paperPerps, paperEquities, paperSwap, paperLending, hyperliquid, alpaca, uniswapV3, aaveV3];

const KINDS: readonly ProtocolKind[] = ['perpetuals', 'equities', 'token_swap', 'lending'];

/** The venues that run, one per kind: a real one where its variables are set, else the simulator. Throws naming a bad variable. */
export function selectVenues(env: VenueEnv, common: CommonVenueSettings, registry: readonly VenueModule[] = VENUES): ConfiguredVenue[] {
  return KINDS.flatMap((kind) => {
    const ofKind = registry.filter((m) => m.kind === kind);
    const real = ofKind
      .filter((m) => m.mode === 'real')
      .map((m) => m.configure(env, common))
      .find((v) => v !== undefined);
    const simulated = ofKind.find((m) => m.mode === 'simulated')?.configure(env, common);
    const chosen = real ?? simulated;
    return chosen ? [chosen] : [];
  });
}
