import type { Plan } from "../schema";

/** Requests per 60-second window (docs/api-conventions.md, Rate limits). */
export const PLAN_LIMITS: Record<Plan, number> = { starter: 60, pro: 300, enterprise: 1000 };
/** Requests without a valid credential, per client IP. */
export const ANONYMOUS_LIMIT = 60;

/** RATE_LIMIT_OVERRIDE (a positive integer) replaces every plan's limit: the benchmark and the shard-move end-to-end check set it, nothing else. */
export function limitOverride(value: string | undefined): number | null {
  const parsed = Number(value);
  return value && Number.isInteger(parsed) && parsed > 0 ? parsed : null;
}
