import type { Gate, StandingContext } from '../gate-context.js';
import { block, pass } from '../gate-verdict.js';

function certification({ protocol, action }: StandingContext) {
  if (protocol.certification !== 'certified') return block('certification', 'ACTION_NOT_CERTIFIED', protocol.certification, `${protocol.id} is not certified.`);
  if (action.certification === 'canary') return block('certification', 'ACTION_CANARY_ONLY', 'canary', `${protocol.id}/${action.id} is canary-only.`);
  if (action.certification !== 'certified') {
    return block('certification', 'ACTION_NOT_CERTIFIED', action.certification, `${protocol.id}/${action.id} is ${action.certification.replace(/_/g, ' ')}.`);
  }
  return pass('certification');
}

/** The protocol and the action are certified (spec: canary-only, disabled, blocked and the like never execute). */
export const certificationGate: Gate = {
  name: 'certification',
  codes: ['ACTION_NOT_CERTIFIED', 'ACTION_CANARY_ONLY'],
  standing: certification,
  evaluate: certification,
};
