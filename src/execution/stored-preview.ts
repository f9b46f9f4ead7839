import type { GateVerdict } from './gate-verdict.js';
import type { ExecutionInstruction } from './instruction.js';
import type { Quote } from './venues/execution-venue.js';

/** A preview as stored under its referenceId: the quote and every gate's verdict at preview time. */
export interface StoredPreview {
  id: string;
  accountId: string;
  referenceId: string;
  instructionHash: string;
  instruction: ExecutionInstruction;
  quote: Quote | null;
  gates: GateVerdict[];
  /** True when every gate passes now (an API key with a covering session, or after approval). */
  executable: boolean;
  createdAt: number;
  expiresAt: number;
}
