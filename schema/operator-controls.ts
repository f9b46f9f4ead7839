import type { ControlsState } from '../src/controls/execution-controls.js';
import { applyControlChange } from '../resolvers/execution/operator-controls.js';
import { builder } from './builder.js';

const ReasonRef = builder.objectRef<{ id: string; reason: string | null }>('ControlReason').implement({
  fields: (t) => ({ id: t.exposeString('id'), reason: t.exposeString('reason', { nullable: true }) }),
});

const ControlsRef = builder.objectRef<ControlsState>('OperatorControls').implement({
  fields: (t) => ({
    executionEnabled: t.exposeBoolean('executionEnabled'),
    killSwitchEngaged: t.boolean({ resolve: (c) => c.killSwitch.engaged }),
    killSwitchReason: t.string({ nullable: true, resolve: (c) => c.killSwitch.reason }),
    disabledProtocols: t.field({ type: [ReasonRef], resolve: (c) => c.disabledProtocols.map((d) => ({ id: d.protocolId, reason: d.reason })) }),
    circuitBreakers: t.field({ type: [ReasonRef], resolve: (c) => c.circuitBreakers.map((d) => ({ id: d.sourceId, reason: d.reason })) }),
  }),
});

builder.mutationFields((t) => ({
  updateOperatorControls: t.field({
    type: ControlsRef,
    description: 'PATCH /api/v1/operator/controls (operator token)',
    authScopes: { operator: true },
    args: {
      executionEnabled: t.arg.boolean(),
      killSwitch: t.arg.boolean(),
      reason: t.arg.string(),
      protocolId: t.arg.string(),
      protocolEnabled: t.arg.boolean(),
      breakerSourceId: t.arg.string(),
      breakerOpen: t.arg.boolean(),
      certificationProtocol: t.arg.string(),
      certificationAction: t.arg.string(),
      certificationState: t.arg.string(),
    },
    resolve: (_r, a, ctx) => applyControlChange(ctx, a),
  }),
}));

builder.queryFields((t) => ({
  operatorControls: t.field({
    type: ControlsRef,
    description: 'GET /api/v1/operator/controls (operator token)',
    authScopes: { operator: true },
    resolve: (_r, _a, ctx) => ctx.services.controls.state(),
  }),
}));
