import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { printSdl, SDL_PATH } from '../codegen.js';

describe('schema/schema.graphql', () => {
  it('is printed from the current Pothos schema (run `npm run codegen` when this fails)', () => {
    expect(readFileSync(SDL_PATH, 'utf8')).toBe(printSdl());
  });
});
