import type { GatewayContext } from '../../src/http/context/gateway-context.js';
import { publicEnvelope, type PublicEnvelope } from '../public/envelope.js';
import { currentView, marketOfKind } from './market-lookup.js';

export interface LendingYield {
  marketId: string;
  asset: string;
  supplyApy: string;
  borrowApy: string;
  utilization: string;
}

export async function lendingYieldEnvelope(ctx: GatewayContext, asset: string): Promise<PublicEnvelope<LendingYield>> {
  const now = ctx.services.clock.now();
  const v = await currentView(ctx, marketOfKind(ctx, asset, 'lending'), now);
  const data = { marketId: v.id, asset: v.asset, supplyApy: v.supplyApy ?? '0', borrowApy: v.borrowApy ?? '0', utilization: v.utilization ?? '0' };
  return publicEnvelope(data, v.freshness, now);
}
