import { parseBearer } from '../../../auth/api-key-secret.js';
import { RequestAuth, type AuthResult } from '../../../auth/authenticator.js';
import type { ServedRoute } from '../../../contract/route-table.js';
import { refusalAnswer } from '../answer.js';
import { credentialOutage } from '../credential-outage.js';
import { checkRateLimit, type RateLimitOptions } from '../rate-limits.js';
import type { Stage } from '../stage.js';

/**
 * Rate limits with the spec's 429 (retryAfter in the body, Retry-After) and the IETF RateLimit /
 * RateLimit-Policy headers on every limited answer: the public plane per client address, a
 * verified credential per key; probes, metrics, MCP sessions and the dashboard are never limited.
 */
export function rateLimitStage(options: RateLimitOptions): Stage {
  return {
    name: 'rateLimit',
    appliesTo: (route) => route.serves === 'contract' || (route.serves !== 'unserved' && 'endpoint' in route && route.endpoint.rateLimited),
    async run(exchange) {
      const isPublic = isPublicRoute(exchange.route);
      let verified: AuthResult | undefined;
      const header = exchange.header('authorization');
      if (!isPublic && 'token' in parseBearer(header)) {
        // Verified once here and kept for the auth-first check and the resolvers.
        exchange.auth ??= new RequestAuth(options.authenticator, header);
        try {
          verified = await exchange.auth.resolve();
        } catch (err) {
          return credentialOutage(err, exchange, options.logger);
        }
      }
      const check = await checkRateLimit(options, {
        isPublic,
        verified,
        forwardedFor: exchange.header('x-forwarded-for'),
        remoteAddress: exchange.remoteAddress,
      });
      if (check.decision) exchange.rate = check.decision;
      return check.rejection ? refusalAnswer(exchange, check.rejection) : undefined;
    },
  };
}

function isPublicRoute(route: ServedRoute): boolean {
  return route.serves === 'contract' && route.spec.visibility === 'public';
}
