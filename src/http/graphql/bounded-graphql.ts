import { blockFieldSuggestionsPlugin } from '@escape.tech/graphql-armor-block-field-suggestions';
import { costLimitPlugin } from '@escape.tech/graphql-armor-cost-limit';
import { maxAliasesPlugin } from '@escape.tech/graphql-armor-max-aliases';
import { maxDepthPlugin } from '@escape.tech/graphql-armor-max-depth';
import { maxDirectivesPlugin } from '@escape.tech/graphql-armor-max-directives';
import { maxTokensPlugin } from '@escape.tech/graphql-armor-max-tokens';
import type { GraphQLError } from 'graphql';
import type { Plugin } from 'graphql-yoga';
import type { GatewayLimits } from '../../config/limits-config.js';
import { queryTooComplex } from '../../errors/availability-refusals.js';
import { isGatewayError } from '../../errors/gateway-error.js';

/** armor's rules throw what their onReject callback throws: our error instead of its "Syntax Error" wording. */
const refuse =
  (limit: string) =>
  (_ctx: unknown, err: GraphQLError): never => {
    throw queryTooComplex(`The operation is over the ${limit} limit: ${err.message.replace(/^Syntax Error: /, '')}`, limit);
  };

/**
 * Bounded GraphQL on every transport that parses and validates through Yoga's envelop (HTTP, SSE,
 * graphql-ws): the document's size is checked before parsing, its tokens while parsing, then its
 * depth, aliases, directives and cost (graphql-armor) before it runs. Field suggestions ("Did you
 * mean …") are masked in production.
 */
export function boundedGraphqlPlugins(limits: GatewayLimits['graphql'], production: boolean): Plugin[] {
  const common = { exposeLimits: true, propagateOnRejection: true } as const;
  // After armor's token-counting parser, so this wraps it: the size is checked before any parsing, and
  // a nesting too deep for the parser's stack is a refusal, not a RangeError.
  const documentSize: Plugin = {
    onParse({ params, parseFn, setParseFn }) {
      const source = typeof params.source === 'string' ? params.source : params.source.body;
      const bytes = Buffer.byteLength(source, 'utf8');
      if (bytes > limits.maxDocumentBytes)
        throw queryTooComplex(`The GraphQL document is ${bytes} bytes; the limit is ${limits.maxDocumentBytes}.`, 'document_bytes');
      setParseFn((...args) => {
        try {
          return parseFn(...args);
        } catch (err) {
          if (err instanceof RangeError) throw queryTooComplex('The GraphQL document is nested too deeply to read.', 'depth');
          throw err;
        }
      });
    },
    onValidate({ validateFn, setValidationFn }) {
      setValidationFn((...args) => {
        try {
          return validateFn(...args);
        } catch (err) {
          if (err instanceof RangeError) throw queryTooComplex('The GraphQL document nests fragments too deeply to check.', 'depth');
          throw err;
        }
      });
    },
  };
  const plugins: Plugin[] = [
    maxTokensPlugin({ ...common, n: limits.maxTokens, onReject: [refuse('tokens')] }) as Plugin,
    documentSize,
    maxDepthPlugin({ ...common, n: limits.maxDepth, flattenFragments: true, onReject: [refuse('depth')] }) as Plugin,
    maxAliasesPlugin({ ...common, n: limits.maxAliases, onReject: [refuse('aliases')] }) as Plugin,
    maxDirectivesPlugin({ ...common, n: limits.maxDirectives, onReject: [refuse('directives')] }) as Plugin,
    costLimitPlugin({ ...common, maxCost: limits.maxCost, onReject: [refuse('cost')] }) as Plugin,
    gatewayErrorStatus,
  ];
  if (production) plugins.push(blockFieldSuggestionsPlugin({ mask: '' }) as Plugin);
  return plugins;
}

/**
 * Yoga marks errors thrown while parsing as spec errors, which an `application/json` request
 * answers with 200; a GatewayError keeps its own status on every media type.
 */
const gatewayErrorStatus: Plugin = {
  onResultProcess({ result }) {
    for (const one of Array.isArray(result) ? result : [result]) {
      const errors = (one as { errors?: readonly unknown[] }).errors;
      for (const e of errors ?? []) {
        const http = isGatewayError(e) ? (e.extensions.http as { spec?: boolean } | undefined) : undefined;
        if (http?.spec) delete http.spec;
      }
    }
  },
};
