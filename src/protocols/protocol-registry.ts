import { isPublic, type CertificationState, type ProtocolDefinition } from './protocol.js';

/** The configured protocols and their actions; the control plane changes them at run time. */
export class ProtocolRegistry {
  private readonly byId: Map<string, ProtocolDefinition>;

  private changes = 0;

  /** Changes with every operator decision (public answers rendered from the registry are kept until it does). */
  get revision(): number {
    return this.changes;
  }

  constructor(protocols: readonly ProtocolDefinition[]) {
    this.byId = new Map(protocols.map((p) => [p.id, structuredClone(p)]));
  }

  all(): ProtocolDefinition[] {
    return [...this.byId.values()];
  }

  get(id: string): ProtocolDefinition | undefined {
    return this.byId.get(id);
  }

  /** Public protocols with only their public actions. */
  publicProtocols(): ProtocolDefinition[] {
    return this.all()
      .filter(isPublic)
      .map((p) => ({ ...p, actions: p.actions.filter(isPublic) }));
  }

  /** Protocols a key holder may know of: everything but hidden ones and hidden actions. */
  visibleProtocols(): ProtocolDefinition[] {
    return this.all()
      .filter((p) => p.visibility !== 'hidden')
      .map((p) => ({ ...p, actions: p.actions.filter((a) => a.visibility !== 'hidden') }));
  }

  /** Changes an action's certification (operator decision); takes effect on the next read. */
  setCertification(protocolId: string, actionId: string, state: CertificationState, at: string): void {
    const action = this.byId.get(protocolId)?.actions.find((a) => a.id === actionId);
    if (!action) throw new Error(`no action ${protocolId}/${actionId}`);
    action.certification = state;
    this.changes += 1;
    action.certifiedAt = state === 'certified' ? at : null;
  }

  publicProtocol(id: string): ProtocolDefinition | undefined {
    return this.publicProtocols().find((p) => p.id === id);
  }
}
