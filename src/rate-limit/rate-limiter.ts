import { RateLimiterRes, type RateLimiterAbstract } from 'rate-limiter-flexible';

export interface RatePolicy {
  /** Name used in the RateLimit headers and as the counter prefix. */
  name: string;
  points: number;
  windowSeconds: number;
}

export interface RateDecision {
  allowed: boolean;
  policy: RatePolicy;
  remaining: number;
  resetSeconds: number;
}

/** Counts requests per bucket within a policy's window; one replica or several (shared store). */
export interface RateLimiter {
  consume(policy: RatePolicy, bucket: string): Promise<RateDecision>;
}

/** A RateLimiter on rate-limiter-flexible; the factory picks its store (memory here, Redis in shared mode). */
export class FlexibleRateLimiter implements RateLimiter {
  private readonly limiters = new Map<string, RateLimiterAbstract>();

  constructor(private readonly create: (policy: RatePolicy) => RateLimiterAbstract) {}

  async consume(policy: RatePolicy, bucket: string): Promise<RateDecision> {
    let limiter = this.limiters.get(policy.name);
    if (!limiter) this.limiters.set(policy.name, (limiter = this.create(policy)));
    try {
      const res = await limiter.consume(bucket);
      return decision(true, policy, res);
    } catch (e) {
      if (e instanceof RateLimiterRes) return decision(false, policy, e);
      throw e;
    }
  }
}

function decision(allowed: boolean, policy: RatePolicy, res: RateLimiterRes): RateDecision {
  return { allowed, policy, remaining: Math.max(0, res.remainingPoints), resetSeconds: Math.max(1, Math.ceil(res.msBeforeNext / 1000)) };
}
