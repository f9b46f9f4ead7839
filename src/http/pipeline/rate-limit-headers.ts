import type { RateDecision } from '../../rate-limit/rate-limiter.js';

/** draft-ietf-httpapi-ratelimit-headers: structured fields naming the policy, on every limited answer. */
export function rateLimitHeaders(d: RateDecision): Record<string, string> {
  return {
    'ratelimit-policy': `"${d.policy.name}";q=${d.policy.points};w=${d.policy.windowSeconds}`,
    ratelimit: `"${d.policy.name}";r=${d.remaining};t=${d.resetSeconds}`,
  };
}
