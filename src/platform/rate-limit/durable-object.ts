import { DurableObject } from "cloudflare:workers";

export const WINDOW_MS = 60_000;

export type LimitDecision = {
  allowed: boolean;
  limit: number;
  remaining: number;
  /** Unix milliseconds when the current window ends. */
  resetAt: number;
};

/** Permits handed out by the object: up to `want`, never more than the window has left. */
export type Grant = { granted: number; limit: number; remaining: number; resetAt: number };

type Counter = { window: number; count: number };

/**
 * One object per workspace (or per client IP for anonymous traffic): an exact fixed-window counter.
 * Windows are aligned to the minute and reset lazily by window number; a client IP's object (a
 * transient key) also deletes its storage by alarm a minute after its window ends.
 * The SQLite-backed KV write is durable before the reply leaves (output gate).
 */
export class RateLimiter extends DurableObject {
  /**
   * Takes up to `want` requests' worth of the window at `now` (a lease for the caller's isolate),
   * against `limit` or, unless `forceLimit`, the stored plan limit.
   */
  take(limit: number, now: number, forceLimit: boolean, want: number, transient = false): Grant {
    const effectiveLimit = forceLimit ? limit : (this.ctx.storage.kv.get<number>("limit") ?? limit);
    const window = Math.floor(now / WINDOW_MS);
    const resetAt = (window + 1) * WINDOW_MS;
    const counter = this.ctx.storage.kv.get<Counter>("counter");
    const count = counter?.window === window ? counter.count : 0;
    const granted = Math.max(0, Math.min(want, effectiveLimit - count));
    if (granted > 0) this.ctx.storage.kv.put("counter", { window, count: count + granted } satisfies Counter);
    // A client IP's counter is of no use after its window: the object forgets it (see alarm).
    // Alarms run on the real clock; `now` is the caller's (a test's may be another day).
    if (transient) void this.ctx.storage.setAlarm(Date.now() + Math.max(0, resetAt - now) + WINDOW_MS);
    return { granted, limit: effectiveLimit, remaining: effectiveLimit - count - granted, resetAt };
  }

  /** The window of a transient key is over: nothing of it is kept. */
  override async alarm(): Promise<void> {
    await this.ctx.storage.deleteAll();
  }

  /** A plan change: applies to the next `take`, whatever limit the caller's cached plan implies. */
  setLimit(limit: number): void {
    this.ctx.storage.kv.put("limit", limit);
  }
}
