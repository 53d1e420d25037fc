import { z } from "@hono/zod-openapi";
import type { BatchItem } from "drizzle-orm/batch";
import { access } from "../../platform/auth/permissions";
import { ApiError } from "../../platform/errors";
import { newRouter } from "../../platform/http/router";
import { defineRoute, envelope, jsonContent } from "../../platform/openapi";
import { clock } from "../../platform/time";
import { type PERIODS, PeriodQuery, periodFromQuery } from "../../platform/widgets";
import { analyticsTenant, siteOf } from "./collect";
import { SiteParam, tags } from "./site-routes";
import { breakdownStatement, buildBreakdown, buildSeries, buildStats, PROPERTIES, type Range, seriesStatements, statsStatements } from "./stats";

const DAY_MS = 86_400_000;

export const RangeQuery = PeriodQuery;
export const rangeOf = (query: { period?: (typeof PERIODS)[number]; from?: string; to?: string }): Range => periodFromQuery(query, clock.now());

const Stats = z
  .object({
    visitors: z.number().int().openapi({ description: "Unique visitors (a browser's id is a day's: counted once per day)" }),
    visits: z.number().int(),
    pageviews: z.number().int(),
    events: z.number().int().openapi({ description: "All events, pageviews included" }),
    bounce_rate: z.number().nullable().openapi({ description: "Visits with a single pageview and nothing else, percent" }),
    visit_duration_seconds: z.number().int().nullable().openapi({ description: "Average time from a visit's first to its last event" }),
    revenue: z.record(z.string(), z.number().int()).openapi({ description: "Per currency, minor units", example: { USD: 125050 } }),
  })
  .openapi("AnalyticsStats");
const Series = z
  .object({
    interval: z.enum(["hour", "day", "week", "month"]),
    points: z.array(z.object({ date: z.string(), value: z.union([z.number(), z.record(z.string(), z.number())]) })),
  })
  .openapi("AnalyticsSeries");
const Breakdown = z
  .object({ items: z.array(z.object({ value: z.string(), visitors: z.number().int(), pageviews: z.number().int() })) })
  .openapi("AnalyticsBreakdown");

const read = { ...access.read("analytics") };
const routes = {
  stats: defineRoute(read, {
    method: "get",
    path: "/analytics/sites/{id}/stats",
    operationId: "getSiteStats",
    tags,
    summary: "Visitors, visits, pageviews, events, bounce rate, visit duration and revenue for a period",
    description:
      "Members and above (an API token needs analytics:read or a broader scope). The period is named (period, default 30d) or from and to (UTC dates, at most 400 days apart). Events count once the queue has processed them, usually within seconds of collection; revenue is per currency in minor units.",
    request: { params: SiteParam, query: z.strictObject(RangeQuery) },
    responses: { 200: jsonContent(envelope(Stats), "The totals") },
  }),
  timeseries: defineRoute(read, {
    method: "get",
    path: "/analytics/sites/{id}/timeseries",
    operationId: "getSiteTimeseries",
    tags,
    summary: "A metric per hour, day or month of a period",
    description:
      "Members and above (an API token needs analytics:read or a broader scope). One point per interval of the period, zeros included; metric=revenue gives a per-currency object per point. interval=hour is for periods of at most 31 days → otherwise 400.",
    request: {
      params: SiteParam,
      query: z.strictObject({
        ...RangeQuery,
        interval: z.enum(["hour", "day", "month"]).optional().openapi({ description: "Default day (month for 12mo and ytd); hour for at most 31 days" }),
        metric: z.enum(["visitors", "pageviews", "events", "revenue"]).optional().openapi({ description: "Default visitors" }),
      }),
    },
    responses: { 200: jsonContent(envelope(Series), "Every interval, zeros included") },
  }),
  breakdown: defineRoute(read, {
    method: "get",
    path: "/analytics/sites/{id}/breakdown",
    operationId: "getSiteBreakdown",
    tags,
    summary: "Visitors and pageviews by page, referrer, country, device or event, largest first",
    description:
      "Members and above (an API token needs analytics:read or a broader scope). Read from the raw events (kept 400 days). Blank values are named: referrer (direct), country and device (unknown), page /; device is desktop, mobile or tablet.",
    request: {
      params: SiteParam,
      query: z.strictObject({
        ...RangeQuery,
        property: z.enum(PROPERTIES).openapi({ description: "page is the URL path without its query string" }),
        limit: z
          .string()
          .regex(/^\d{1,3}$/, "must be an integer from 1 to 100")
          .transform(Number)
          .pipe(z.number().min(1).max(100))
          .optional()
          .openapi({ type: "integer", description: "1–100, default 10" }),
      }),
    },
    responses: { 200: jsonContent(envelope(Breakdown), "The values") },
  }),
};

export const reportRoutes = newRouter()
  .openapi(routes.stats, async (c) => {
    const tenant = analyticsTenant(c);
    const site = await siteOf(tenant, c.req.valid("param").id);
    const results = await tenant.batch(statsStatements(tenant, site.id, rangeOf(c.req.valid("query"))) as [BatchItem<"sqlite">, ...BatchItem<"sqlite">[]]);
    return c.json({ success: true as const, data: buildStats(results) }, 200);
  })
  .openapi(routes.timeseries, async (c) => {
    const query = c.req.valid("query");
    const tenant = analyticsTenant(c);
    const site = await siteOf(tenant, c.req.valid("param").id);
    const range = rangeOf(query);
    const interval = query.interval ?? (query.period === "12mo" || query.period === "ytd" ? "month" : "day");
    if (interval === "hour" && range.untilMs - range.fromMs > 31 * DAY_MS)
      throw ApiError.validation([{ path: "interval", message: "hour needs a range of at most 31 days" }]);
    const metric = query.metric ?? "visitors";
    const results = await tenant.batch(seriesStatements(tenant, site.id, range, interval, metric) as [BatchItem<"sqlite">, ...BatchItem<"sqlite">[]]);
    return c.json({ success: true as const, data: buildSeries(range, interval, metric, results) }, 200);
  })
  .openapi(routes.breakdown, async (c) => {
    const query = c.req.valid("query");
    const tenant = analyticsTenant(c);
    const site = await siteOf(tenant, c.req.valid("param").id);
    const rows = await breakdownStatement(tenant, site.id, rangeOf(query), query.property, query.limit ?? 10);
    return c.json({ success: true as const, data: buildBreakdown(query.property, rows as never) }, 200);
  });
