import { z } from 'zod';
import { readJsonConfig } from '../config/read-json-config.js';
import type { ProtocolRegistry } from '../protocols/protocol-registry.js';
import { CERTIFICATION_STATES } from '../protocols/protocol.js';
import type { ExecutionControls } from './execution-controls.js';

const controlsSchema = z
  .object({
    executionEnabled: z.boolean().default(true),
    disabledProtocols: z.record(z.string(), z.string().min(1)).default({}),
    killSwitch: z.object({ engaged: z.boolean(), reason: z.string().min(1).optional() }).optional(),
    circuitBreakers: z.record(z.string(), z.string().min(1)).default({}),
    certifications: z.array(z.object({ protocol: z.string(), action: z.string(), state: z.enum(CERTIFICATION_STATES) })).default([]),
  })
  .strict();

/** GATEWAY_CONTROLS as read and validated, with the path its errors name. */
export interface ControlsFile {
  path: string;
  controls: z.infer<typeof controlsSchema>;
}

/** Reads and validates GATEWAY_CONTROLS (before the app is loaded); errors name the file and the bad entry. */
export function readControlsFile(path: string): ControlsFile {
  return { path, controls: readJsonConfig('GATEWAY_CONTROLS', path, controlsSchema) };
}

/**
 * Applies GATEWAY_CONTROLS at start-up: feature flags, kill switch, circuit breakers and
 * certification overrides. Errors name the file and the bad entry; the operator route changes
 * the same controls at run time.
 */
export function applyControlsFile({ path, controls: c }: ControlsFile, controls: ExecutionControls, protocols: ProtocolRegistry, now: string): void {
  controls.setExecutionEnabled(c.executionEnabled);
  for (const [id, reason] of Object.entries(c.disabledProtocols)) controls.setProtocolEnabled(id, false, reason);
  if (c.killSwitch?.engaged) controls.engageKillSwitch(c.killSwitch.reason ?? 'configured');
  for (const [sourceId, reason] of Object.entries(c.circuitBreakers)) controls.tripBreaker(sourceId, reason);
  c.certifications.forEach((cert, i) => {
    try {
      protocols.setCertification(cert.protocol, cert.action, cert.state, now);
    } catch {
      throw new Error(`GATEWAY_CONTROLS ${path}: certifications[${i}]: no action ${cert.protocol}/${cert.action}`);
    }
  });
}
