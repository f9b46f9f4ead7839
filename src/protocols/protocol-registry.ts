import { isPublic, type ProtocolDefinition } from './protocol.js';

/** The configured protocols and their actions; the control plane changes them at run time. */
export class ProtocolRegistry {
  private readonly byId: Map<string, ProtocolDefinition>;

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

  publicProtocol(id: string): ProtocolDefinition | undefined {
    return this.publicProtocols().find((p) => p.id === id);
  }
}
