import { invalidField } from '../errors/error-factories.js';
import type { ActionDefinition, ProtocolDefinition } from '../protocols/protocol.js';
import type { ProtocolRegistry } from '../protocols/protocol-registry.js';
import type { ExecutionInstruction } from './instruction.js';
import type { ExecutionVenue } from './venues/execution-venue.js';

/** What an instruction names: the protocol, its action, and the paper venue that trades it. */
export interface ExecutionTarget {
  protocol: ProtocolDefinition;
  action: ActionDefinition;
  venue: ExecutionVenue;
}

/** The protocol, action and venue an instruction names; unknown or hidden ones are a 400 alike. */
export function resolveTarget(protocols: ProtocolRegistry, venues: ReadonlyMap<string, ExecutionVenue>, i: ExecutionInstruction): ExecutionTarget {
  const protocol = protocols.visibleProtocols().find((p) => p.id === i.protocol);
  const venue = protocol && venues.get(protocol.id);
  if (!protocol || !venue) throw invalidField('protocol', `is not a known protocol (see GET /api/v1/capabilities)`);
  const action = protocol.actions.find((a) => a.id === i.action);
  if (!action) throw invalidField('action', `is not an action of ${protocol.id}`);
  return { protocol, action, venue };
}
