import type { Logger } from 'pino';
import type { CertificationState } from '../protocols/protocol.js';
import type { ProtocolRegistry } from '../protocols/protocol-registry.js';
import type { ControlsState, ExecutionControls } from './execution-controls.js';

/** Everything an operator controls, as one document: flags, kill switch, breakers, certifications. */
export interface ControlsSnapshot {
  controls: ControlsState;
  certifications: { protocol: string; action: string; state: CertificationState }[];
}

/** Where the fleet keeps the controls in force (Redis in shared mode). */
export interface ControlsChannel {
  load(): Promise<ControlsSnapshot | undefined>;
  /** Stores the snapshot and tells every replica. */
  save(snapshot: ControlsSnapshot): Promise<void>;
  /** Calls back when another replica saved; returns an unsubscribe. */
  listen(onChange: () => void): Promise<() => void>;
}

/**
 * Keeps one process's controls in step with the fleet: an operator change on any replica
 * applies on every replica. Gates read the local copy (synchronously, on the hot path); the
 * shared copy is the truth and wins at start (the controls file only seeds an empty store).
 * Without a channel (memory mode, tests) it does nothing.
 */
export class SharedControls {
  private unlisten: (() => void) | undefined;

  constructor(
    private readonly controls: ExecutionControls,
    private readonly protocols: ProtocolRegistry,
    private readonly channel: ControlsChannel | undefined,
    private readonly logger: Logger,
  ) {}

  snapshot(): ControlsSnapshot {
    return {
      controls: this.controls.state(),
      certifications: this.protocols.all().flatMap((p) => p.actions.map((a) => ({ protocol: p.id, action: a.id, state: a.certification }))),
    };
  }

  private adopt(s: ControlsSnapshot, at: string): void {
    this.controls.replace(s.controls);
    for (const c of s.certifications) {
      const current = this.protocols.get(c.protocol)?.actions.find((a) => a.id === c.action)?.certification;
      if (current !== undefined && current !== c.state) this.protocols.setCertification(c.protocol, c.action, c.state, at);
    }
  }

  private async pull(): Promise<void> {
    const remote = await this.channel!.load();
    if (remote) this.adopt(remote, new Date().toISOString());
    else await this.channel!.save(this.snapshot());
  }

  async start(): Promise<void> {
    if (!this.channel) return;
    this.unlisten = await this.channel.listen(() => void this.pull().catch((err) => this.logger.warn({ err }, 'could not read shared controls')));
    await this.pull();
  }

  /** After a local operator change: share it. */
  async changed(): Promise<void> {
    if (this.channel) await this.channel.save(this.snapshot());
  }

  stop(): void {
    this.unlisten?.();
  }
}
