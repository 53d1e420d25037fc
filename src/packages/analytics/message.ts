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
  kind: z.enum(["browser", "server"]),
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
  /** The tracker's page-load id and the event's place in it (see ingest: the visitor's order). */
  load: z.string().max(64).optional(),
  seq: z.number().int().nonnegative().optional(),
  browser: z.string().max(64).default(""),
  browserVersion: z.string().max(32).default(""),
  os: z.string().max(64).default(""),
  osVersion: z.string().max(32).default(""),
  region: z.string().max(128).default(""),
  city: z.string().max(128).default(""),
  /** Where the visit came from, had this event started it (a visit keeps its first event's). */
  source: z.string().max(255).default(""),
  channel: z.string().max(32).default("Direct"),
  utm: z.object({ source: z.string(), medium: z.string(), campaign: z.string(), term: z.string(), content: z.string() }).optional(),
});
export type AnalyticsEvent = z.infer<typeof AnalyticsEvent>;
/** What the collector builds (defaults not yet applied). */
export type AnalyticsEventInput = z.input<typeof AnalyticsEvent>;

/** A queue message: the events an isolate gathered (one per queue operation, not one per page view). */
export const AnalyticsMessage = z.object({ v: z.literal(1), events: z.array(AnalyticsEvent).min(1).max(100) });
export type AnalyticsMessageInput = z.input<typeof AnalyticsMessage>;
export type AnalyticsMessage = z.infer<typeof AnalyticsMessage>;
