import SchemaBuilder from '@pothos/core';
import type { GatewayContext } from './context.js';

export interface GatewaySchemaTypes {
  Context: GatewayContext;
  // Non-null by default: OpenAPI `required` lists come from it (STACK.md).
  DefaultFieldNullability: false;
  Scalars: {
    DateTime: { Input: string; Output: string | number | Date };
    Decimal: { Input: string; Output: string };
    JSONObject: { Input: Record<string, unknown>; Output: Record<string, unknown> };
  };
}

export const builder = new SchemaBuilder<GatewaySchemaTypes>({ defaultFieldNullability: false });
