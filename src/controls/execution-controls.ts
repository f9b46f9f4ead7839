/** A control that blocks execution, with the reason an operator gave. */
export interface ControlBlock {
  engaged: boolean;
  reason: string | null;
}

/**
 * Operator controls over execution: the global feature flag, per-protocol flags, the kill switch
 * and per-venue circuit breakers. Capabilities read them live; execution gates enforce them.
 */
export interface ControlsState {
  executionEnabled: boolean;
  disabledProtocols: { protocolId: string; reason: string }[];
  killSwitch: ControlBlock;
  circuitBreakers: { sourceId: string; reason: string }[];
}

export class ExecutionControls {
  private executionEnabled = true;
  private readonly disabledProtocols = new Map<string, string>();
  private killSwitch: ControlBlock = { engaged: false, reason: null };
  private readonly breakers = new Map<string, string>();

  isExecutionEnabled(): boolean {
    return this.executionEnabled;
  }
  setExecutionEnabled(enabled: boolean): void {
    this.executionEnabled = enabled;
  }

  protocolDisabledReason(protocolId: string): string | undefined {
    return this.disabledProtocols.get(protocolId);
  }
  setProtocolEnabled(protocolId: string, enabled: boolean, reason = 'disabled by operator'): void {
    if (enabled) this.disabledProtocols.delete(protocolId);
    else this.disabledProtocols.set(protocolId, reason);
  }

  killSwitchState(): ControlBlock {
    return { ...this.killSwitch };
  }
  engageKillSwitch(reason: string): void {
    this.killSwitch = { engaged: true, reason };
  }
  releaseKillSwitch(): void {
    this.killSwitch = { engaged: false, reason: null };
  }

  state(): ControlsState {
    return {
      executionEnabled: this.executionEnabled,
      disabledProtocols: [...this.disabledProtocols].map(([protocolId, reason]) => ({ protocolId, reason })),
      killSwitch: this.killSwitchState(),
      circuitBreakers: [...this.breakers].map(([sourceId, reason]) => ({ sourceId, reason })),
    };
  }

  /** Adopts a whole state (another replica's operator change). */
  replace(state: ControlsState): void {
    this.executionEnabled = state.executionEnabled;
    this.disabledProtocols.clear();
    for (const d of state.disabledProtocols) this.disabledProtocols.set(d.protocolId, d.reason);
    this.killSwitch = { ...state.killSwitch };
    this.breakers.clear();
    for (const b of state.circuitBreakers) this.breakers.set(b.sourceId, b.reason);
  }

  breakerReason(sourceId: string): string | undefined {
    return this.breakers.get(sourceId);
  }
  tripBreaker(sourceId: string, reason: string): void {
    this.breakers.set(sourceId, reason);
  }
  resetBreaker(sourceId: string): void {
    this.breakers.delete(sourceId);
  }
}
