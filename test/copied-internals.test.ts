import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { COPIED_INTERNALS } from '../src/http/copied-internals.js';

const require = createRequire(import.meta.url);
const manifest = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { dependencies: Record<string, string> };

describe('packages whose internals the public fast path copies', () => {
  for (const [name, version] of Object.entries(COPIED_INTERNALS)) {
    it(`${name} is pinned to exactly ${version} and installed at it`, () => {
      expect(manifest.dependencies[name]).toBe(version);
      const installed = JSON.parse(readFileSync(require.resolve(`${name}/package.json`), 'utf8')) as { version: string };
      expect(installed.version).toBe(version);
    });
  }
});
