import { readFileSync } from 'node:fs';
import type { z } from 'zod';

/** Reads and validates a JSON file named by an environment variable; errors name the variable, file and entry. */
export function readJsonConfig<S extends z.ZodType>(variable: string, path: string, schema: S): z.infer<S> {
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(path, 'utf8'));
  } catch (e) {
    throw new Error(`${variable} ${path}: cannot read JSON (${e instanceof Error ? e.message : String(e)})`, { cause: e });
  }
  const parsed = schema.safeParse(raw);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((i) => `${i.path.join('.').replace(/\.(\d+)/g, '[$1]') || '(root)'}: ${i.message}`);
    throw new Error(`${variable} ${path}: ${problems.join('; ')}`);
  }
  return parsed.data;
}
