import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { generateDocuments } from '../codegen.js';

const root = fileURLToPath(new URL('..', import.meta.url));

describe('generated dashboard documents (dashboard/src/gql)', () => {
  it('match operations.graphql and the checked-in SDL (run npm run codegen when this fails)', async () => {
    const files = await generateDocuments();
    expect(files.map((f) => f.filename).sort()).toEqual(['dashboard/src/gql/gql.ts', 'dashboard/src/gql/graphql.ts', 'dashboard/src/gql/index.ts']);
    for (const file of files) {
      const onDisk = readFileSync(join(root, file.filename), 'utf8');
      expect(onDisk === file.content, `${file.filename} is stale: run npm run codegen`).toBe(true);
    }
    const typed = files.find((f) => f.filename.endsWith('graphql.ts'))!.content;
    expect(typed).toContain('export const DashboardMarketsDocument = new TypedDocumentString(');
    expect(typed).toMatch(/price: string/);
  }, 60_000);
});
