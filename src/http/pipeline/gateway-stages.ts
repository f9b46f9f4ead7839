import type { GraphQLSchema } from 'graphql';
import type { Logger } from 'pino';
import type { Authenticator } from '../../auth/authenticator.js';
import type { OperatorAccess } from '../../controls/operator-access.js';
import type { LifecycleState } from '../operations/readiness.js';
import type { RateLimitOptions } from './rate-limits.js';
import type { Stage } from './stage.js';
import { authFirstStage } from './stages/auth-first.js';
import { bodyAdmissionStage } from './stages/body-admission.js';
import { corsStage } from './stages/cors.js';
import { jsonBodyStage } from './stages/json-body.js';
import { rateLimitStage } from './stages/rate-limit.js';
import { routeParametersStage } from './stages/route-parameters.js';
import { startingStage } from './stages/starting.js';
import { strictBodyStage } from './stages/strict-body.js';

export interface StageDeps {
  lifecycle: LifecycleState;
  corsOrigins: readonly string[];
  maxBodyBytes: number;
  rateLimits: RateLimitOptions;
  authenticator: Authenticator;
  operator: OperatorAccess;
  /** The schema REST bodies are checked against (known once Yoga built it). */
  restSchema: () => GraphQLSchema;
  logger: Logger;
}

/**
 * The stages every request meets, in order, the one statement of that order: each route runs
 * the ones that apply to it (decided once per route), then its handler. A public read runs
 * starting, CORS, its parameters and the rate limit, nothing else: the short way by construction.
 */
export function gatewayStages(deps: StageDeps): readonly Stage[] {
  return [
    startingStage(deps.lifecycle),
    corsStage(deps.corsOrigins),
    bodyAdmissionStage(deps.maxBodyBytes),
    routeParametersStage('public'),
    rateLimitStage(deps.rateLimits),
    authFirstStage(deps),
    routeParametersStage('guarded'),
    jsonBodyStage(),
    strictBodyStage(deps.restSchema),
  ];
}
