import type { HmacKey } from "../config";
import type { IsolateState } from "../isolate";
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
  // Ids are pure functions of the name (a memo, not state).
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
    return this.stub(key).take(limit, now, forceLimit, want, isTransientKey(key));
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

/** Per isolate: the permits it holds for each key in the current window, and the refills under way. */
export type LeaseBook = { leases: Map<string, Lease>; refills: Map<string, Promise<void>> };

/**
 * Exact limits at a fraction of the object calls: an isolate takes a small lease of the window from
 * the object and spends it locally. Nothing is ever admitted beyond the limit (every permit was
 * granted by the object); `Remaining` is what the object has left plus this isolate's unspent permits.
 * The price: permits leased by an isolate that then goes quiet are unavailable to others until the
 * window ends — at most leaseSize(limit) per isolate.
 */
export class LeasingLimiter implements Limiter {
  private readonly leases: Map<string, Lease>;
  private readonly refills: Map<string, Promise<void>>;

  constructor(
    private readonly store: CounterStore,
    book: LeaseBook = { leases: new Map(), refills: new Map() },
  ) {
    this.leases = book.leases;
    this.refills = book.refills;
  }

  async check(key: string, limit: number, now: number, forceLimit: boolean): Promise<LimitDecision> {
    const window = Math.floor(now / WINDOW_MS);
    for (;;) {
      const lease = this.leases.get(key);
      if (lease && lease.window === window) {
        if (lease.permits > 0) {
          lease.permits -= 1;
          return { allowed: true, limit: lease.limit, remaining: lease.remainingAtStore + lease.permits, resetAt: lease.resetAt };
        }
        if (lease.exhausted) return { allowed: false, limit: lease.limit, remaining: 0, resetAt: lease.resetAt };
      }
      // One refill per key at a time; requests that arrive meanwhile wait for it and try again.
      let refill = this.refills.get(key);
      if (!refill) {
        refill = this.refill(key, limit, now, forceLimit, window).finally(() => this.refills.delete(key));
        this.refills.set(key, refill);
      }
      await refill;
    }
  }

  private async refill(key: string, limit: number, now: number, forceLimit: boolean, window: number): Promise<void> {
    const grant = await this.store.take(key, limit, now, forceLimit, leaseSize(limit));
    const current = this.leases.get(key);
    const carried = current && current.window === window ? current.permits : 0;
    if (this.leases.size > 10_000) for (const [stale, lease] of this.leases) if (lease.window < window) this.leases.delete(stale);
    this.leases.set(key, {
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
    this.leases.delete(key);
  }
}

/** The production limiter: leases from one Durable Object per key, kept in the isolate's state. */
export function durableLimiter(namespace: DurableObjectNamespace<RateLimiter>, isolate: IsolateState): Limiter {
  const book = isolate.get<LeaseBook>("rate-limit.leases", () => ({ leases: new Map(), refills: new Map() }));
  return new LeasingLimiter(new DurableObjectCounters(namespace), book);
}

export const workspaceKey = (workspaceId: number) => `workspace:${workspaceId}`;
/**
 * A client IP's limiter object is named by a keyed hash of the IP and the hour: nothing at rest names
 * the IP, and the object (which deletes its storage when its window ends) is never addressed again
 * after the hour.
 */
export async function ipKey(key: HmacKey, ip: string, now: number, scope = ""): Promise<string> {
  return `ip:${await key.hex([Math.floor(now / 3_600_000), scope, ip], 32)}`;
}
/** Keys whose objects forget their counters once the window is over (nothing about them needs keeping). */
export const isTransientKey = (key: string) => key.startsWith("ip:");
