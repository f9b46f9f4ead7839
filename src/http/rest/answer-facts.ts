import { defaultFieldResolver, type GraphQLFieldResolver, type GraphQLSchema } from 'graphql';
import type { Freshness, FreshnessBasis } from '../../domain/freshness.js';

/**
 * What a root field's answer says about its HTTP response, returned by its resolver with the
 * value (withAnswerFacts): the envelope's own status, its freshness (Cache-Control), a mirror's
 * ETag, headers (Idempotent-Replayed) and how it depends on time (RenderedAnswers).
 */
export interface AnswerFacts {
  /** The envelope's own status over the route's (404 for an unknown market). */
  status?: number;
  freshness?: Freshness;
  /** Weak validator of the snapshot behind a mirror response. */
  etag?: string;
  headers?: Readonly<Record<string, string>>;
  /** Set for an answer that depends only on the snapshot version and the instant. */
  timed?: TimedAnswer;
}

/**
 * How an answer depends on time: it was computed at `now` from the snapshot cache at `version`,
 * and within the body only `generatedAt` and these freshness values (in the order their JSON
 * appears, the envelope's first) depend on the instant.
 */
export interface TimedAnswer {
  version: string;
  now: number;
  /** Nothing in it depends on the instant (a contract document): the same bytes, and encodings, until the version moves. */
  constant?: boolean;
  freshness: FreshnessBasis[];
  /** A mirror's ETag, from the version and the freshness values at the instant of the answer. */
  etag?: (version: string, freshness: readonly Freshness[]) => string;
  /**
   * Members whose value is the instant itself (RFC 3339), after the freshness values in body
   * order, one each: a history's default `to`.
   */
  instants?: readonly string[];
  /**
   * For an answer that depends on more than the snapshot version (a history on its candles and
   * on which buckets are closed): whether it still stands at this instant. Checked on every reuse.
   */
  standsAt?: (now: number) => boolean;
}

const FACTS = Symbol('answerFacts');

/** Facts of frozen values (a contract document), which cannot carry a property of their own. */
const FROZEN_FACTS = new WeakMap<object, AnswerFacts>();

/**
 * `value` carrying its facts; GraphQL and JSON never see them. A value made for this answer
 * carries them itself; a frozen one shared by every answer (a contract document) may only carry
 * facts that hold for all of them.
 */
export function withAnswerFacts<T extends object>(value: T, facts: AnswerFacts): T {
  if (Object.isFrozen(value)) FROZEN_FACTS.set(value, facts);
  else Object.defineProperty(value, FACTS, { value: facts, enumerable: false });
  return value;
}

/**
 * The root value of a REST execution: the route's root field hands it the facts its resolver
 * returned, so the execution's caller gets them with the data. GraphQL requests have no such root.
 */
export class RouteRoot {
  facts: AnswerFacts | undefined;
}

/** Every root field of the schema reports its value's facts to a RouteRoot (the one place they are read). */
export function reportAnswerFacts(schema: GraphQLSchema): void {
  for (const root of [schema.getQueryType(), schema.getMutationType()]) {
    for (const field of Object.values(root?.getFields() ?? {})) {
      const resolve: GraphQLFieldResolver<unknown, unknown> = field.resolve ?? defaultFieldResolver;
      field.resolve = (source, args, context, info) => {
        const value = resolve(source, args, context, info);
        if (!(source instanceof RouteRoot)) return value;
        return value instanceof Promise ? value.then((v: unknown) => report(source, v)) : report(source, value);
      };
    }
  }
}

function report(root: RouteRoot, value: unknown): unknown {
  if (typeof value === 'object' && value !== null) root.facts = (value as { [FACTS]?: AnswerFacts })[FACTS] ?? FROZEN_FACTS.get(value);
  return value;
}
