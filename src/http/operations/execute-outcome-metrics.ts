import { getOperationAST, Kind, type ExecutionResult } from 'graphql';
import type { Plugin } from 'graphql-yoga';
import type { GatewayMetrics } from './gateway-metrics.js';

/** The refusal code of an execute answer: the gateway error's code, else the GraphQL error's extension code. */
function codeOf(result: ExecutionResult): string {
  const first = result.errors?.[0] as { originalError?: { code?: unknown }; extensions?: { code?: unknown } } | undefined;
  const code = first?.originalError?.code ?? first?.extensions?.code;
  return typeof code === 'string' ? code : 'unknown';
}

/**
 * Counts every answer to the `execute` mutation (REST through Sofa and /graphql alike) by the
 * state it answered or "refused" with its code, for `gateway_execute_outcomes_total`.
 */
export function useExecuteOutcomeMetrics(metrics: () => GatewayMetrics | undefined): Plugin {
  return {
    onExecute({ args }) {
      const op = getOperationAST(args.document, args.operationName);
      if (op?.operation !== 'mutation') return;
      const field = op.selectionSet.selections.find((s) => s.kind === Kind.FIELD && s.name.value === 'execute');
      if (!field || field.kind !== Kind.FIELD) return;
      const key = field.alias?.value ?? 'execute';
      return {
        onExecuteDone({ result }) {
          if (Symbol.asyncIterator in result) return;
          const answered = (result.data as Record<string, { state?: unknown } | null> | null | undefined)?.[key];
          if (answered && typeof answered.state === 'string') metrics()?.executeOutcome(answered.state, 'none');
          else metrics()?.executeOutcome('refused', codeOf(result));
        },
      };
    },
  };
}
