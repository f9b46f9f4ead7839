import { writeFileSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { lexicographicSortSchema, printSchema } from 'graphql';
import { buildSchema } from './schema/index.js';

/** Prints the SDL of the Pothos schema; `schema/schema.graphql` is checked in and tested for staleness. */
export const SDL_PATH = fileURLToPath(new URL('./schema/schema.graphql', import.meta.url));

export function printSdl(): string {
  return `${printSchema(lexicographicSortSchema(buildSchema()))}\n`;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const sdl = printSdl();
  const check = process.argv.includes('--check');
  const current = (() => {
    try {
      return readFileSync(SDL_PATH, 'utf8');
    } catch {
      return '';
    }
  })();
  if (check) {
    if (current !== sdl) {
      console.error('schema/schema.graphql is stale: run npm run codegen');
      process.exit(1);
    }
    console.log('schema/schema.graphql is current');
  } else {
    writeFileSync(SDL_PATH, sdl);
    console.log(`wrote ${SDL_PATH}`);
  }
}
