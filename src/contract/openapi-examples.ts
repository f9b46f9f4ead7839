import { readFileSync } from 'node:fs';

/** Examples of one operation, recorded from live responses (`UPDATE_CONTRACT=1` re-records them). */
export interface OperationExamples {
  request?: unknown;
  responses: Record<number, unknown>;
}

type ExamplesFile = Record<string, { request?: unknown; responses?: Record<string, unknown> }>;

let loaded: ExamplesFile | undefined;

function file(): ExamplesFile {
  loaded ??= JSON.parse(readFileSync(new URL('./openapi-examples.json', import.meta.url), 'utf8')) as ExamplesFile;
  return loaded;
}

export function examplesOf(operationId: string): OperationExamples {
  const entry = file()[operationId] ?? {};
  return { ...(entry.request !== undefined ? { request: entry.request } : {}), responses: entry.responses ?? {} };
}
