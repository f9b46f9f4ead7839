import type { StoredPreview } from '../../src/execution/stored-preview.js';
import type { GatewayContext } from '../../src/http/context/gateway-context.js';
import { principalOf, replayedAnswer } from './principal.js';

/** POST /api/v1/execute/preview: the quote and every gate's verdict; a same-body replay is marked. */
export async function previewExecution(ctx: GatewayContext, args: Record<string, unknown>): Promise<StoredPreview & { replayed: boolean }> {
  const { preview, replayed } = await ctx.services.execution.previews.preview(await principalOf(ctx), args);
  return replayedAnswer({ ...preview, replayed }, replayed);
}
