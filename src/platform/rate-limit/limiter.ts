import { type Grant, type LimitDecision, type RateLimiter, WINDOW_MS } from "./durable-object";

/** What the middleware needs from a rate limiter; the algorithm behind it can change. */
export interface Limiter {
  /** Counts one request for `key` at `now`. `limit` is the caller's view; a stored plan limit wins unless `forceLimit`. */
  check(key: string, limit: number, now: number, forceLimit: boolean): Promise<LimitDecision>;
  /** Stores a new limit for `key`, effective from its next request. */
  setLimit(key: string, limit: number): Promise<void>;
}

/** Where windows are counted: one Durable Object per key. */
export interface CounterStore {
  take(key: string, limit: number, now: number, forceLimit: boolean, want: number): Promise<Grant>;
  setLimit(key: string, limit: number): Promise<void>;
}

export class DurableObjectCounters implements CounterStore {
  // Ids are pure functions of the name: keep them for the life of the isolate.
  private static ids = new Map<string, DurableObjectId>();

  constructor(private readonly namespace: DurableObjectNamespace<RateLimiter>) {}

  private stub(key: string) {
    let id = DurableObjectCounters.ids.get(key);
    if (!id) {
      id = this.namespace.idFromName(key);
      if (DurableObjectCounters.ids.size > 10_000) DurableObjectCounters.ids.clear();
      DurableObjectCounters.ids.set(key, id);
    }
    return this.namespace.get(id);
  }

  take(key: string, limit: number, now: number, forceLimit: boolean, want: number): Promise<Grant> {
    return this.stub(key).take(limit, now, forceLimit, want);
  }

  async setLimit(key: string, limit: number): Promise<void> {
    await this.stub(key).setLimit(limit);
  }
}

/** How many requests an isolate takes from the object at once: 5 % of the limit, 1 to 100. */
export function leaseSize(limit: number): number {
  return Math.max(1, Math.min(100, Math.floor(limit / 20)));
}

type Lease = { window: number; limit: number; permits: number; remainingAtStore: number; resetAt: number; exhausted: boolean };

// Per isolate: the permits this isolate holds for each key in the current window.
const leases = new Map<string, Lease>();
const refills = new Map<string, Promise<void>>();

/**
 * Exact limits at a fraction of the object calls: an isolate takes a small lease of the window from
 * the object and spends it locally. Nothing is ever admitted beyond the limit (every permit was
 * granted by the object); `Remaining` is what the object has left plus this isolate's unspent permits.
 * The price: permits leased by an isolate that then goes quiet are unavailable to others until the
 * window ends — at most leaseSize(limit) per isolate.
 */
export class LeasingLimiter implements Limiter {
  constructor(private readonly store: CounterStore) {}

  async check(key: string, limit: number, now: number, forceLimit: boolean): Promise<LimitDecision> {
    const window = Math.floor(now / WINDOW_MS);
    for (;;) {
      const lease = leases.get(key);
      if (lease && lease.window === window) {
        if (lease.permits > 0) {
          lease.permits -= 1;
          return { allowed: true, limit: lease.limit, remaining: lease.remainingAtStore + lease.permits, resetAt: lease.resetAt };
        }
        if (lease.exhausted) return { allowed: false, limit: lease.limit, remaining: 0, resetAt: lease.resetAt };
      }
      // One refill per key at a time; requests that arrive meanwhile wait for it and try again.
      let refill = refills.get(key);
      if (!refill) {
        refill = this.refill(key, limit, now, forceLimit, window).finally(() => refills.delete(key));
        refills.set(key, refill);
      }
      await refill;
    }
  }

  private async refill(key: string, limit: number, now: number, forceLimit: boolean, window: number): Promise<void> {
    const grant = await this.store.take(key, limit, now, forceLimit, leaseSize(limit));
    const current = leases.get(key);
    const carried = current && current.window === window ? current.permits : 0;
    if (leases.size > 10_000) for (const [stale, lease] of leases) if (lease.window < window) leases.delete(stale);
    leases.set(key, {
      window,
      limit: grant.limit,
      permits: carried + grant.granted,
      remainingAtStore: grant.remaining,
      resetAt: grant.resetAt,
      exhausted: grant.granted === 0,
    });
  }

  async setLimit(key: string, limit: number): Promise<void> {
    await this.store.setLimit(key, limit);
    // This isolate's lease was taken under the old limit: the next request asks the object again.
    leases.delete(key);
  }
}

/** The production limiter: leases from one Durable Object per key. */
export function durableLimiter(namespace: DurableObjectNamespace<RateLimiter>): Limiter {
  return new LeasingLimiter(new DurableObjectCounters(namespace));
}

export const workspaceKey = (workspaceId: number) => `workspace:${workspaceId}`;
export const ipKey = (ip: string) => `ip:${ip}`;
