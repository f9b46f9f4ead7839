import type { ArgBuilder } from '@pothos/core';
import { builder } from './builder.js';
import type { GatewaySchemaTypes } from './builder.js';

const AssetInInput = builder.inputType('AssetInInput', {
  fields: (t) => ({
    token: t.string({ required: true }),
    amount: t.string({ required: true, description: 'Decimal string.' }),
  }),
});

const MetadataInput = builder.inputType('ExecutionMetadataInput', {
  description: 'Order details: side, type and price for orders; tokenOut and slippageBps for swaps; leverage for perpetuals.',
  fields: (t) => ({
    side: t.string({ description: 'buy or sell' }),
    type: t.string({ description: 'market or limit' }),
    price: t.string({ description: 'Limit price, decimal string.' }),
    leverage: t.int(),
    tokenOut: t.string(),
    slippageBps: t.int(),
    timeInForce: t.string({
      description: 'How a limit order rests at a real venue: gtc (default), alo (post-only) or ioc. The paper venues fill or refuse at once.',
    }),
  }),
});

/** The execution request's fields, flat (Sofa reads them from the top-level JSON body). */
export const instructionArgs = (arg: ArgBuilder<PothosSchemaTypes.ExtendDefaultTypes<GatewaySchemaTypes>>) => ({
  protocol: arg.string({ required: true }),
  action: arg.string({ required: true }),
  assetIn: arg({ type: AssetInInput, required: true }),
  metadata: arg({ type: MetadataInput }),
  referenceId: arg.string({ required: true, description: 'Client-supplied, unique per execution request; the idempotency key.' }),
});
