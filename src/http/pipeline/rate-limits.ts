import type { Logger } from 'pino';
import type { AuthResult, Authenticator } from '../../auth/authenticator.js';
import { rateLimited } from '../../errors/availability-refusals.js';
import type { GatewayError } from '../../errors/gateway-error.js';
import type { RateDecision, RateLimiter, RatePolicy } from '../../rate-limit/rate-limiter.js';
import { rateLimitHeaders } from './rate-limit-headers.js';

export interface RateLimitOptions {
  limiter: RateLimiter;
  /** Per client address, for the public plane and anonymous GraphQL. */
  publicPolicy: RatePolicy;
  /** Per verified API key (or wallet session), for authenticated routes and GraphQL calls that carry one. */
  keyPolicy: RatePolicy;
  /** Verifies a presented credential before it is given a key's budget. */
  authenticator: Authenticator;
  /** Take the client address from X-Forwarded-For (only behind a trusted proxy). */
  trustProxy: boolean;
  logger: Logger;
  /** Told of every 429 the limiter decides (metrics). */
  onRejected?: (policy: string) => void;
}

/** The limiter's verdict on one request: a decision whose headers go on the answer, or a 429 to send instead. */
export interface RateCheck {
  /** Absent when the counter store is down (the request is allowed without RateLimit headers). */
  decision?: RateDecision;
  rejection?: GatewayError;
}

/** What the limiter needs to know of a request, over HTTP or graphql-ws alike. */
export interface RateSubject {
  /** The matched contract route is public: counted per client address whatever key it carries. */
  isPublic: boolean;
  /** The caller's credential once verified; anything but a valid key or session counts as the client address. */
  verified?: AuthResult | undefined;
  forwardedFor: string | null | undefined;
  remoteAddress: string | undefined;
}

/**
 * Counts one request against its policy. Only a verified key (or wallet session) gets the key's
 * budget; a made-up or revoked credential counts against the client address, so presenting a new
 * random token per request gains nothing.
 */
export async function checkRateLimit(options: RateLimitOptions, subject: RateSubject): Promise<RateCheck> {
  const identity = subject.isPublic ? undefined : verifiedBucket(subject.verified);
  const [policy, bucket] = identity ? [options.keyPolicy, identity] : [options.publicPolicy, clientAddress(subject, options.trustProxy)];
  let decision: RateDecision;
  try {
    decision = await options.limiter.consume(policy, bucket);
  } catch (err) {
    // Reads stay available when the counter store is down; execution has its own fail-closed gates.
    options.logger.warn({ err }, 'rate limiter unavailable; request allowed');
    return {};
  }
  if (decision.allowed) return { decision };
  options.onRejected?.(policy.name);
  return { decision, rejection: rateLimited(policy, decision.resetSeconds, rateLimitHeaders(decision)) };
}

/** The key-policy bucket of a verified credential: the key's id, or the wallet session's. */
export function verifiedBucket(auth: AuthResult | undefined): string | undefined {
  if (auth?.kind === 'key') return `key:${auth.key.id}`;
  if (auth?.kind === 'wallet') return `wallet:${auth.sessionId}`;
  return undefined;
}

export function clientAddress(subject: Pick<RateSubject, 'forwardedFor' | 'remoteAddress'>, trustProxy: boolean): string {
  if (trustProxy) {
    const forwarded = subject.forwardedFor?.split(',')[0]?.trim();
    if (forwarded) return forwarded;
  }
  return subject.remoteAddress ?? 'unknown';
}
