import type { Gate, StandingContext } from '../gate-context.js';
import { block, pass } from '../gate-verdict.js';

function featureFlag({ deps, protocol }: StandingContext) {
  if (!deps.controls.isExecutionEnabled())
    return block('feature_flag', 'EXECUTION_DISABLED', 'execution_enabled', 'Execution is disabled in this environment.');
  const reason = deps.controls.protocolDisabledReason(protocol.id);
  if (reason) return block('feature_flag', 'EXECUTION_DISABLED', 'protocol_enabled', `Execution on ${protocol.id} is disabled: ${reason}.`);
  return pass('feature_flag');
}

/** The operator's feature flags: execution as a whole, then the protocol. */
export const featureFlagGate: Gate = {
  name: 'feature_flag',
  codes: ['EXECUTION_DISABLED'],
  standing: featureFlag,
  evaluate: featureFlag,
};
