import { invalidField } from '../errors/error-factories.js';
import type { ActionDefinition, ProtocolDefinition } from '../protocols/protocol.js';
import type { ProtocolRegistry } from '../protocols/protocol-registry.js';
import type { ExecutionInstruction } from './instruction.js';
import type { ExecutionVenue } from './venues/execution-venue.js';
import { isRoutedVenue } from './venues/routed-venue.js';

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
  // Only a venue that holds orders can rest one: the gateway's paper fills are immediate-or-cancel.
  const tif = i.metadata?.timeInForce;
  if (tif !== undefined && tif !== 'ioc' && !isRoutedVenue(venue))
    throw invalidField('metadata.timeInForce', `${tif} needs a venue that holds orders; ${protocol.id} fills limit orders immediate-or-cancel (ioc)`);
  return { protocol, action, venue };
}
