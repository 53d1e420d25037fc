import { z } from "@hono/zod-openapi";
import { access } from "../../platform/auth/permissions";
import { ApiError } from "../../platform/errors";
import { newRouter } from "../../platform/http/router";
import { defineRoute, envelope, jsonContent } from "../../platform/openapi";
import { clock } from "../../platform/time";
import { type PERIODS, PeriodQuery, periodFromQuery } from "../../platform/widgets";
import { analyticsTenant, siteOf } from "./collect";
import { isProperty, PROPERTIES, type Property } from "./filters";
import { breakdownStatement, buildBreakdownItems, buildRealtime, realtimeStatement } from "./queries";
import { filtersFor, seriesReport, siteAndGoals, statsReport } from "./reports";
import { SiteParam, tags } from "./site-routes";
import type { Range } from "./stats";

const DAY_MS = 86_400_000;

export const RangeQuery = {
  ...PeriodQuery,
  filters: z.string().max(4000).optional().openapi({
    description:
      "Filters joined by `;`: `property==value`, `property!=value`, `property~=substring` (case-insensitive). Properties: page, entry_page, exit_page, referrer, source, channel, utm_medium, utm_source, utm_campaign, utm_term, utm_content, country, region, city, device, browser, os, event, goal, prop:<key>. A `;` inside a value is written %3B.",
    example: "country==DE;channel==Organic Search",
  }),
};
const CompareQuery = {
  compare: z
    .enum(["previous_period", "previous_year"])
    .optional()
    .openapi({ description: "Adds `previous` (the same report for the compared period) and `change` (percent, one decimal; null from zero)" }),
};
export const rangeOf = (query: { period?: (typeof PERIODS)[number]; from?: string; to?: string }): Range => periodFromQuery(query, clock.now());

const Totals = {
  visitors: z.number().int().openapi({ description: "Unique visitors (a browser's id is a day's: counted once per day)" }),
  visits: z.number().int(),
  pageviews: z.number().int(),
  events: z.number().int().openapi({ description: "All events, pageviews included" }),
  bounce_rate: z.number().nullable().openapi({ description: "Visits with a single pageview and nothing else, percent" }),
  visit_duration_seconds: z.number().int().nullable().openapi({ description: "Average time from a visit's first to its last event" }),
  revenue: z
    .record(z.string(), z.number().int())
    .openapi({ description: "Per currency, minor units: purchase events and revenue goals only", example: { USD: 125050 } }),
  goals: z.array(
    z.object({
      id: z.number().int(),
      name: z.string(),
      type: z.enum(["event", "page"]),
      value: z.string(),
      uniques: z.number().int().openapi({ description: "Visitors who completed it" }),
      total: z.number().int().openapi({ description: "Completions" }),
      conversion_rate: z.number().nullable().openapi({ description: "uniques / visitors, percent" }),
    }),
  ),
};
const Change = z.record(z.string(), z.union([z.number(), z.null(), z.record(z.string(), z.number().nullable())]));
const Stats = z
  .object({
    ...Totals,
    previous: z.object(Totals).optional().openapi({ description: "With compare: the compared period's figures" }),
    change: Change.optional().openapi({ description: "With compare: percent change per field (revenue: per currency), null from zero" }),
  })
  .openapi("AnalyticsStats");
const Points = z.array(z.object({ date: z.string(), value: z.union([z.number(), z.record(z.string(), z.number())]) }));
const Series = z
  .object({
    interval: z.enum(["hour", "day", "week", "month"]),
    points: Points,
    previous: z.object({ interval: z.string(), points: Points }).optional().openapi({ description: "With compare: the compared period's points" }),
    change: z.number().nullable().optional().openapi({ description: "With compare: percent change of the period's total (null for revenue or from zero)" }),
  })
  .openapi("AnalyticsSeries");
const Breakdown = z
  .object({
    items: z.array(
      z.object({
        value: z.string(),
        visitors: z.number().int(),
        visits: z.number().int(),
        pageviews: z.number().int(),
        events: z.number().int(),
        bounce_rate: z.number().nullable(),
        conversion_rate: z.number().nullable().openapi({ description: "With a goal== filter: the row's visitors who completed it, percent" }),
      }),
    ),
    page: z.number().int(),
    limit: z.number().int(),
  })
  .openapi("AnalyticsBreakdown");
const Realtime = z
  .object({
    visitors: z.number().int().openapi({ description: "Distinct visitors in the last 5 minutes" }),
    pages: z.array(z.object({ value: z.string(), visitors: z.number().int() })),
    sources: z.array(z.object({ value: z.string(), visitors: z.number().int() })),
  })
  .openapi("AnalyticsRealtime");
const number = (description: string, max: number) =>
  z
    .string()
    .regex(/^\d{1,6}$/, `must be an integer from 1 to ${max}`)
    .transform(Number)
    .pipe(z.number().min(1, `must be an integer from 1 to ${max}`).max(max, `must be an integer from 1 to ${max}`))
    .optional()
    .openapi({ type: "integer", description });

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
    request: { params: SiteParam, query: z.strictObject({ ...RangeQuery, ...CompareQuery }) },
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
        ...CompareQuery,
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
    summary:
      "Visitors, visits, pageviews, events and bounce rate by a property (page, source, channel, UTM, location, device, browser, OS, event, prop:<key>), largest first",
    description:
      "Members and above (an API token needs analytics:read or a broader scope). Read from the raw events (kept 400 days). Blank values are named: source and referrer `Direct / None`, country, region, city, device, browser and os `(unknown)`; rows without a UTM value or property are left out. `page` counts pageviews by path, `event` the other events by name; visit properties (source, channel, UTM, entry and exit page) count every event of the visits with that value.",
    request: {
      params: SiteParam,
      query: z.strictObject({
        ...RangeQuery,
        property: z
          .string()
          .refine(isProperty, `must be one of ${PROPERTIES.join(", ")} or prop:<key>`)
          .openapi({ description: "page is the URL path without its query string; prop:<key> a custom property", example: "source" }),
        limit: number("1–100, default 10", 100),
        page: number("1-based page of `limit` items, default 1", 100_000),
      }),
    },
    responses: { 200: jsonContent(envelope(Breakdown), "The values") },
  }),
  realtime: defineRoute(read, {
    method: "get",
    path: "/analytics/sites/{id}/realtime",
    operationId: "getSiteRealtime",
    tags,
    summary: "Visitors in the last five minutes, with the pages and sources they are on",
    description:
      "Members and above (an API token needs analytics:read or a broader scope). Events count once the queue has written them, usually within seconds.",
    request: { params: SiteParam },
    responses: { 200: jsonContent(envelope(Realtime), "Now") },
  }),
};

export const reportRoutes = newRouter()
  .openapi(routes.stats, async (c) => {
    const query = c.req.valid("query");
    const tenant = analyticsTenant(c);
    const { site, goals } = await siteAndGoals(tenant, c.req.valid("param").id);
    const data = await statsReport(tenant, site.id, rangeOf(query), filtersFor(query.filters, goals), goals, query.compare);
    return c.json({ success: true as const, data }, 200);
  })
  .openapi(routes.timeseries, async (c) => {
    const query = c.req.valid("query");
    const tenant = analyticsTenant(c);
    const { site, goals } = await siteAndGoals(tenant, c.req.valid("param").id);
    const range = rangeOf(query);
    const interval = query.interval ?? (query.period === "12mo" || query.period === "ytd" ? "month" : "day");
    if (interval === "hour" && range.untilMs - range.fromMs > 31 * DAY_MS)
      throw ApiError.validation([{ path: "interval", message: "hour needs a range of at most 31 days" }]);
    const data = await seriesReport(tenant, site.id, range, interval, query.metric ?? "visitors", filtersFor(query.filters, goals), goals, query.compare);
    return c.json({ success: true as const, data }, 200);
  })
  .openapi(routes.breakdown, async (c) => {
    const query = c.req.valid("query");
    const tenant = analyticsTenant(c);
    const { site, goals } = await siteAndGoals(tenant, c.req.valid("param").id);
    const property = query.property as Property;
    const limit = query.limit ?? 10;
    const page = query.page ?? 1;
    const scope = { tenant, siteId: site.id, range: rangeOf(query), filters: filtersFor(query.filters, goals), goals };
    const rows = await breakdownStatement(scope, property, limit, (page - 1) * limit);
    return c.json({ success: true as const, data: { items: buildBreakdownItems(property, rows), page, limit } }, 200);
  })
  .openapi(routes.realtime, async (c) => {
    const tenant = analyticsTenant(c);
    const site = await siteOf(tenant, c.req.valid("param").id);
    const rows = await realtimeStatement(tenant, site.id, clock.now());
    return c.json({ success: true as const, data: buildRealtime(rows) }, 200);
  });
