import { createConfig, lintFromString } from '@redocly/openapi-core';
import { Document, Spectral } from '@stoplight/spectral-core';
import * as Parsers from '@stoplight/spectral-parsers';
import { oas } from '@stoplight/spectral-rulesets';

export interface LintProblem {
  tool: 'redocly' | 'spectral';
  severity: 'error' | 'warn';
  rule: string;
  where: string;
  message: string;
}

/** Redocly's `recommended` ruleset: errors and warnings (not infos). */
export async function redoclyProblems(doc: object): Promise<LintProblem[]> {
  const config = await createConfig({ extends: ['recommended'] });
  const problems = await lintFromString({ source: JSON.stringify(doc), absoluteRef: 'openapi.json', config });
  return problems
    .filter((p) => p.severity === 'error' || p.severity === 'warn')
    .map((p) => ({
      tool: 'redocly' as const,
      severity: p.severity as 'error' | 'warn',
      rule: p.ruleId,
      where: p.location[0]?.pointer ?? '',
      message: p.message,
    }));
}

/** Spectral's `spectral:oas` ruleset (its recommended rules): errors and warnings. */
export async function spectralProblems(doc: object): Promise<LintProblem[]> {
  const spectral = new Spectral();
  spectral.setRuleset({ extends: [[oas as never, 'recommended']] });
  const results = await spectral.run(new Document(JSON.stringify(doc, null, 2), Parsers.Json, 'openapi.json'));
  return results
    .filter((r) => r.severity <= 1)
    .map((r) => ({
      tool: 'spectral' as const,
      severity: r.severity === 0 ? ('error' as const) : ('warn' as const),
      rule: String(r.code),
      where: r.path.join('.'),
      message: r.message,
    }));
}

export function counts(problems: readonly LintProblem[]): { errors: number; warnings: number } {
  return { errors: problems.filter((p) => p.severity === 'error').length, warnings: problems.filter((p) => p.severity === 'warn').length };
}
