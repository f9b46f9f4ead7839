// A module import, so the compiled build (dist/) carries the file too.
import recorded from './openapi-examples.json' with { type: 'json' };

/** Examples of one operation, recorded from live responses (`UPDATE_CONTRACT=1` re-records them). */
export interface OperationExamples {
  request?: unknown;
  responses: Record<number, unknown>;
}

type ExamplesFile = Record<string, { request?: unknown; responses?: Record<string, unknown> }>;

const file = (): ExamplesFile => recorded as ExamplesFile;

export function examplesOf(operationId: string): OperationExamples {
  const entry = file()[operationId] ?? {};
  return { ...(entry.request !== undefined ? { request: entry.request } : {}), responses: entry.responses ?? {} };
}
