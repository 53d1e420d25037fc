import { DurableObject } from "cloudflare:workers";
import type { Env } from "../context";

export const WINDOW_MS = 60_000;

export type LimitDecision = {
  allowed: boolean;
  limit: number;
  remaining: number;
  /** Unix milliseconds when the current window ends. */
  resetAt: number;
};

type Counter = { window: number; count: number };

/**
 * One object per workspace (or per client IP for anonymous traffic): an exact fixed-window counter.
 * Windows are aligned to the minute and reset lazily by window number, so no alarm is needed.
 * The SQLite-backed KV write is durable before the reply leaves (output gate).
 */
export class RateLimiter extends DurableObject<Env> {
  /** Counts one request at `now` against `limit`, or against the stored plan limit unless `forceLimit`. */
  check(limit: number, now: number, forceLimit = false): LimitDecision {
    const effectiveLimit = forceLimit ? limit : (this.ctx.storage.kv.get<number>("limit") ?? limit);
    const window = Math.floor(now / WINDOW_MS);
    const resetAt = (window + 1) * WINDOW_MS;
    const counter = this.ctx.storage.kv.get<Counter>("counter");
    const count = counter?.window === window ? counter.count : 0;
    if (count >= effectiveLimit) return { allowed: false, limit: effectiveLimit, remaining: 0, resetAt };
    this.ctx.storage.kv.put("counter", { window, count: count + 1 } satisfies Counter);
    return { allowed: true, limit: effectiveLimit, remaining: effectiveLimit - count - 1, resetAt };
  }

  /** A plan change: applies to the next `check`, whatever limit the caller's cached plan implies. */
  setLimit(limit: number): void {
    this.ctx.storage.kv.put("limit", limit);
  }
}
