import { CERTIFICATION_STATES, type CertificationState } from '../../src/protocols/protocol.js';
import type { ControlsState } from '../../src/controls/execution-controls.js';
import type { GatewayContext } from '../../src/http/context/gateway-context.js';
import { invalidField } from '../../src/errors/error-factories.js';

export interface ControlChange {
  executionEnabled?: boolean | null;
  killSwitch?: boolean | null;
  reason?: string | null;
  protocolId?: string | null;
  protocolEnabled?: boolean | null;
  breakerSourceId?: string | null;
  breakerOpen?: boolean | null;
  certificationProtocol?: string | null;
  certificationAction?: string | null;
  certificationState?: string | null;
}

/** Applies an operator's change to the live controls of every replica; every change is logged. */
export async function applyControlChange(ctx: GatewayContext, c: ControlChange): Promise<ControlsState> {
  const { controls, protocols, logger, clock } = ctx.services;
  const reason = c.reason ?? 'operator decision';
  if (c.protocolEnabled != null && !c.protocolId) throw invalidField('protocolId', 'is required with protocolEnabled');
  if (c.breakerOpen != null && !c.breakerSourceId) throw invalidField('breakerSourceId', 'is required with breakerOpen');
  if (c.certificationState != null) {
    if (!(CERTIFICATION_STATES as readonly string[]).includes(c.certificationState))
      throw invalidField('certificationState', `must be one of ${CERTIFICATION_STATES.join(', ')}`);
    if (!c.certificationProtocol || !c.certificationAction)
      throw invalidField('certificationAction', 'and certificationProtocol are required with certificationState');
    try {
      protocols.setCertification(
        c.certificationProtocol,
        c.certificationAction,
        c.certificationState as CertificationState,
        new Date(clock.now()).toISOString(),
      );
    } catch {
      throw invalidField('certificationAction', `is not an action of ${c.certificationProtocol}`);
    }
  }
  if (c.executionEnabled != null) controls.setExecutionEnabled(c.executionEnabled);
  if (c.killSwitch === true) controls.engageKillSwitch(reason);
  if (c.killSwitch === false) controls.releaseKillSwitch();
  if (c.protocolId && c.protocolEnabled != null) controls.setProtocolEnabled(c.protocolId, c.protocolEnabled, reason);
  if (c.breakerSourceId && c.breakerOpen === true) controls.tripBreaker(c.breakerSourceId, reason);
  if (c.breakerSourceId && c.breakerOpen === false) controls.resetBreaker(c.breakerSourceId);
  logger.warn({ change: c }, 'operator changed execution controls');
  await ctx.services.sharedControls.changed();
  return controls.state();
}
