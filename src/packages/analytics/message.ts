import { z } from "@hono/zod-openapi";

/**
 * The most one event may bring: 1,000,000,000 minor units (10,000,000.00 of a two-decimal currency). With the
 * per-site rate, no sum over a report's period can overflow, and reports saturate at 2^53 − 1.
 */
export const MAX_EVENT_REVENUE = 1_000_000_000;
/** One event as the queue carries it from the collector to the consumer: never an IP address or a user agent. */
export const AnalyticsEvent = z.object({
  workspaceId: z.number().int().positive(),
  siteId: z.number().int().positive(),
  source: z.enum(["browser", "server"]),
  visitor: z.string().regex(/^[0-9a-f]{16}$/),
  previousVisitor: z
    .string()
    .regex(/^[0-9a-f]{16}$/)
    .optional(),
  name: z.string().min(1).max(64),
  path: z.string().max(2048),
  referrer: z.string().max(255),
  country: z.string().max(2),
  device: z.string().max(16),
  props: z.record(z.string(), z.union([z.string(), z.number()])).optional(),
  revenue: z.object({ amount: z.number().int().nonnegative().max(MAX_EVENT_REVENUE), currency: z.string().length(3) }).optional(),
  ts: z.number().int().positive(),
});
export type AnalyticsEvent = z.infer<typeof AnalyticsEvent>;

/** A queue message: the events an isolate gathered (one per queue operation, not one per page view). */
export const AnalyticsMessage = z.object({ v: z.literal(1), events: z.array(AnalyticsEvent).min(1).max(100) });
export type AnalyticsMessage = z.infer<typeof AnalyticsMessage>;
