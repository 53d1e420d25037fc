import type { LimitDecision, RateLimiter } from "./durable-object";

/** What the middleware needs from a rate limiter; the algorithm behind it can change. */
export interface Limiter {
  /** Counts one request for `key` at `now`. `limit` is the caller's view; a stored plan limit wins unless `forceLimit`. */
  check(key: string, limit: number, now: number, forceLimit: boolean): Promise<LimitDecision>;
  /** Stores a new limit for `key`, effective from its next request. */
  setLimit(key: string, limit: number): Promise<void>;
}

/** Fixed windows counted in one Durable Object per key. */
export class DurableObjectLimiter implements Limiter {
  // Ids are pure functions of the name: keep them for the life of the isolate.
  private static ids = new Map<string, DurableObjectId>();

  constructor(private readonly namespace: DurableObjectNamespace<RateLimiter>) {}

  private stub(key: string) {
    let id = DurableObjectLimiter.ids.get(key);
    if (!id) {
      id = this.namespace.idFromName(key);
      if (DurableObjectLimiter.ids.size > 10_000) DurableObjectLimiter.ids.clear();
      DurableObjectLimiter.ids.set(key, id);
    }
    return this.namespace.get(id);
  }

  check(key: string, limit: number, now: number, forceLimit: boolean): Promise<LimitDecision> {
    return this.stub(key).check(limit, now, forceLimit);
  }

  async setLimit(key: string, limit: number): Promise<void> {
    await this.stub(key).setLimit(limit);
  }
}

export const workspaceKey = (workspaceId: number) => `workspace:${workspaceId}`;
export const ipKey = (ip: string) => `ip:${ip}`;
