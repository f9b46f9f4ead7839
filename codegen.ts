import { writeFileSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { generate, type CodegenConfig } from '@graphql-codegen/cli';
import { lexicographicSortSchema, printSchema } from 'graphql';
import { buildSchema } from './schema/index.js';

/** Prints the SDL of the Pothos schema; `schema/schema.graphql` is checked in and tested for staleness. */
export const SDL_PATH = fileURLToPath(new URL('./schema/schema.graphql', import.meta.url));

export function printSdl(): string {
  return `${printSchema(lexicographicSortSchema(buildSchema()))}\n`;
}

/** GraphQL Code Generator config: typed documents (as strings) for the dashboard's operations, from the printed SDL. */
export const config: CodegenConfig = {
  silent: true,
  schema: 'schema/schema.graphql',
  documents: ['dashboard/src/operations.graphql'],
  ignoreNoDocuments: false,
  generates: {
    'dashboard/src/gql/': {
      preset: 'client',
      presetConfig: { fragmentMasking: false },
      config: {
        documentMode: 'string',
        useTypeImports: true,
        enumsAsTypes: true,
        avoidOptionals: { field: true, inputValue: false, object: false, defaultValue: false },
        skipTypename: true,
        scalars: { Decimal: 'string', DateTime: 'string', JSONObject: 'Record<string, unknown>' },
      },
    },
  },
};

/** The generated files in memory, keyed by path relative to the repository root. */
export async function generateDocuments(): Promise<{ filename: string; content: string }[]> {
  return (await generate(config, false)) as { filename: string; content: string }[];
}

export default config;

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
    await generate(config, true);
    console.log('wrote dashboard/src/gql/');
  }
}
