import { z } from "@hono/zod-openapi";
import { and, eq, sql } from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";
import { access } from "../../platform/auth/permissions";
import { base62, randomBytes } from "../../platform/crypto";
import { ApiError } from "../../platform/errors";
import { fields } from "../../platform/fields";
import { newRouter } from "../../platform/http/router";
import { defineRoute, envelope, IdParam, idPathParam, jsonBodyOf, jsonContent } from "../../platform/openapi";
import { Deleted, ListMeta } from "../../platform/resource/routes";
import { platformOf } from "../../platform/services";
import { clock, isoTimestamp } from "../../platform/time";
import { type PERIODS, PeriodQuery, periodFromQuery } from "../../platform/widgets";
import { analyticsTenant, forgetSite, siteOf } from "./collect";
import { buildFunnel, CHECKOUT, type FunnelDefinition, funnelStatement } from "./funnels";
import { daily, dailyRevenue, deletedSites, funnels, sites } from "./schema";
import { breakdownStatement, buildBreakdown, buildSeries, buildStats, PROPERTIES, type Range, seriesStatements, statsStatements } from "./stats";

const tags = ["Analytics"];
const DAY_MS = 86_400_000;

const Site = z
  .object({
    id: z.number().int(),
    domain: z.string().openapi({ example: "shop.example.com" }),
    site_key: z.string().openapi({ description: "Public: it goes in the tracker snippet", example: "site_3kTZ…" }),
    created_at: fields.timestamp(),
  })
  .openapi("AnalyticsSite");
const toSite = (row: typeof sites.$inferSelect): z.infer<typeof Site> => ({
  id: row.id,
  domain: row.domain,
  site_key: row.siteKey,
  created_at: isoTimestamp(row.createdAt),
});

const domain = z
  .string()
  .trim()
  .toLowerCase()
  .transform((value) =>
    value
      .replace(/^https?:\/\//, "")
      .replace(/\/.*$/, "")
      .replace(/^www\./, "")
      .replace(/\.$/, ""),
  )
  .pipe(
    z
      .string()
      .regex(/^(?=.{1,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)(\.[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)*$/, "must be a domain name such as shop.example.com"),
  )
  .openapi({ type: "string", example: "shop.example.com" });

const RangeQuery = PeriodQuery;
const rangeOf = (query: { period?: (typeof PERIODS)[number]; from?: string; to?: string }): Range => periodFromQuery(query, clock.now());

const SiteParam = z.object({ id: idPathParam("id") });
const FunnelParams = z.object({
  id: idPathParam("id"),
  funnel_id: z
    .string()
    .regex(/^(checkout|[1-9][0-9]{0,15})$/)
    .openapi({ param: { name: "funnel_id", in: "path" }, description: "A funnel id, or checkout (built in)", example: "checkout" }),
});

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

const Step = z
  .strictObject({
    type: z.enum(["page", "event"]),
    value: z.string().min(1).max(200).openapi({ description: "page: a URL path, * matches anything (/blog/*); event: an event name", example: "/pricing" }),
  })
  .superRefine((step, context) => {
    if (step.type === "page" && !step.value.startsWith("/"))
      context.addIssue({ code: "custom", path: ["value"], message: "a page step must be a path starting with /" });
    if (step.type === "event" && step.value !== "pageview" && !/^[a-z0-9_.:-]{1,64}$/.test(step.value)) {
      context.addIssue({ code: "custom", path: ["value"], message: "must be an event name: 1–64 of a-z, 0-9, _ . : -" });
    }
  });
const CreateFunnel = z
  .strictObject({
    name: fields.name(),
    steps: z.array(Step).min(2, "must have at least 2 steps").max(8, "must have at most 8 steps"),
    window_minutes: z.number().int().min(1).max(10_080).optional().openapi({ description: "Default 1440 (a day)" }),
  })
  .openapi("CreateFunnel", {
    example: {
      name: "Signup",
      steps: [
        { type: "page", value: "/pricing" },
        { type: "event", value: "signup" },
      ],
    },
  });
const Funnel = z
  .object({
    id: z.union([z.number().int(), z.literal("checkout")]),
    site_id: z.number().int(),
    name: z.string(),
    steps: z.array(z.object({ type: z.enum(["page", "event"]), value: z.string() })),
    window_minutes: z.number().int(),
    built_in: z.boolean(),
  })
  .openapi("Funnel");
const FunnelReport = z
  .object({
    steps: z.array(
      z.object({
        index: z.number().int(),
        label: z.string(),
        visitors: z.number().int(),
        conversion_rate: z.number().nullable(),
        dropoff_rate: z.number().nullable(),
      }),
    ),
    conversion_rate: z.number().nullable(),
    revenue: z.record(z.string(), z.number().int()),
  })
  .openapi("FunnelReport");

const toFunnel = (siteId: number, funnel: FunnelDefinition): z.infer<typeof Funnel> => ({
  id: funnel.id,
  site_id: siteId,
  name: funnel.name,
  steps: funnel.steps,
  window_minutes: funnel.windowMinutes,
  built_in: funnel.id === "checkout",
});

const read = { ...access.read("analytics") };
const write = { ...access.write("analytics") };

const routes = {
  createSite: defineRoute(access.admin, {
    method: "post",
    path: "/analytics/sites",
    operationId: "createSite",
    tags,
    summary: "Add a site to track; its site_key goes in the tracker snippet",
    description:
      "Admins and owners (an API token needs the admin scope). domain is a host name; a scheme, a path, www. and a trailing dot are dropped (https://www.shop.example.com/ → shop.example.com), anything else not a domain → 400. Events are accepted for urls on the domain and its subdomains; the site_key is public (data-site of the tracker script).",
    request: { body: jsonBodyOf(z.strictObject({ domain }).openapi("CreateSite", { example: { domain: "shop.example.com" } })) },
    responses: { 201: jsonContent(envelope(Site), "The site") },
  }),
  listSites: defineRoute(read, {
    method: "get",
    path: "/analytics/sites",
    operationId: "listSites",
    tags,
    summary: "The workspace's sites",
    description: "Members and above (an API token needs analytics:read or a broader scope). Every site of the workspace, oldest first, in one page.",
    responses: { 200: jsonContent(z.object({ success: z.literal(true), data: z.array(Site), meta: ListMeta }), "Every site (one page)") },
  }),
  getSite: defineRoute(read, {
    method: "get",
    path: "/analytics/sites/{id}",
    operationId: "getSite",
    tags,
    summary: "A site",
    description:
      "Members and above (an API token needs analytics:read or a broader scope). The site's domain and public site_key; another workspace's site → 404.",
    request: { params: IdParam },
    responses: { 200: jsonContent(envelope(Site), "The site") },
  }),
  deleteSite: defineRoute(access.admin, {
    method: "delete",
    path: "/analytics/sites/{id}",
    operationId: "deleteSite",
    tags,
    summary: "Delete a site with its events, rollups and funnels",
    description:
      "Admins and owners (an API token needs the admin scope). The site, its rollups and its funnels go at once and its site_key stops being accepted (within a minute); its raw events are deleted by the cron in chunks.",
    request: { params: IdParam },
    responses: { 200: jsonContent(envelope(Deleted), "Deleted") },
  }),
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
  createFunnel: defineRoute(write, {
    method: "post",
    path: "/analytics/sites/{id}/funnels",
    operationId: "createFunnel",
    tags,
    summary: "Define a funnel: 2–8 steps (pages or events) within a window",
    description:
      "Members and above (an API token needs analytics:write, write or admin). A page step matches a pageview of that path (* is a wildcard: /blog/*); an event step matches an event name (pageview included). A visitor completes the funnel by doing the steps in order within window_minutes (1–10080, default 1440) of step 1.",
    request: { params: SiteParam, body: jsonBodyOf(CreateFunnel) },
    responses: { 201: jsonContent(envelope(Funnel), "The funnel") },
  }),
  listFunnels: defineRoute(read, {
    method: "get",
    path: "/analytics/sites/{id}/funnels",
    operationId: "listFunnels",
    tags,
    summary: "The site's funnels, the built-in checkout first",
    description:
      "Members and above (an API token needs analytics:read or a broader scope). The built-in checkout funnel (view_item → add_to_cart → begin_checkout → add_payment_info → purchase, within a day) first, then the site's own, oldest first, in one page.",
    request: { params: SiteParam },
    responses: { 200: jsonContent(z.object({ success: z.literal(true), data: z.array(Funnel), meta: ListMeta }), "Every funnel (one page)") },
  }),
  getFunnel: defineRoute(read, {
    method: "get",
    path: "/analytics/sites/{id}/funnels/{funnel_id}",
    operationId: "getFunnel",
    tags,
    summary: "A funnel (checkout is built in)",
    description:
      "Members and above (an API token needs analytics:read or a broader scope). funnel_id is a funnel's id or checkout; a funnel of another site → 404.",
    request: { params: FunnelParams },
    responses: { 200: jsonContent(envelope(Funnel), "The funnel") },
  }),
  deleteFunnel: defineRoute(write, {
    method: "delete",
    path: "/analytics/sites/{id}/funnels/{funnel_id}",
    operationId: "deleteFunnel",
    errors: ["conflict"],
    tags,
    summary: "Delete a funnel (not the built-in checkout)",
    description:
      "Members and above (an API token needs analytics:write, write or admin). Deleting checkout → 409 conflict; a funnel of another site → 404. The events stay: they belong to the site.",
    request: { params: FunnelParams },
    responses: { 200: jsonContent(envelope(z.object({ id: z.union([z.number().int(), z.literal("checkout")]), deleted: z.literal(true) })), "Deleted") },
  }),
  report: defineRoute(read, {
    method: "get",
    path: "/analytics/sites/{id}/funnels/{funnel_id}/report",
    operationId: "getFunnelReport",
    tags,
    summary: "How many visitors reached each step, in order and within the window, and the completers' revenue",
    description:
      "Members and above (an API token needs analytics:read or a broader scope). Read from the raw events of the period (kept 400 days). A visitor reaches a step after doing the earlier ones in order within the window of step 1; rates are percent of step 1 (conversion) and of the previous step (dropoff), null without visitors. revenue sums the completers' purchase events, per currency in minor units.",
    request: { params: FunnelParams, query: z.strictObject(RangeQuery) },
    responses: { 200: jsonContent(envelope(FunnelReport), "The report") },
  }),
};

async function funnelOf(tenant: ReturnType<typeof analyticsTenant>, siteId: number, id: string): Promise<FunnelDefinition> {
  if (id === "checkout") return CHECKOUT;
  const row = await tenant.select(funnels, eq(funnels.siteId, siteId), eq(funnels.id, Number(id))).get();
  if (!row) throw ApiError.notFound("funnel");
  return { id: row.id, name: row.name, steps: row.steps, windowMinutes: row.windowMinutes };
}

export const analyticsRoutes = newRouter()
  .openapi(routes.createSite, async (c) => {
    const { domain: name } = c.req.valid("json");
    const tenant = analyticsTenant(c);
    const now = Date.now();
    const [row] = await tenant.insert(sites, { domain: name, siteKey: `site_${base62(randomBytes(16))}`, createdAt: now, updatedAt: now }).returning();
    return c.json({ success: true as const, data: toSite(row!) }, 201);
  })
  .openapi(routes.listSites, async (c) => {
    const rows = await analyticsTenant(c).select(sites).orderBy(sites.id);
    return c.json({ success: true as const, data: rows.map(toSite), meta: { limit: rows.length, has_more: false, next_cursor: null } }, 200);
  })
  .openapi(routes.getSite, async (c) => c.json({ success: true as const, data: toSite(await siteOf(analyticsTenant(c), c.req.valid("param").id)) }, 200))
  .openapi(routes.deleteSite, async (c) => {
    const { id } = c.req.valid("param");
    const tenant = analyticsTenant(c);
    const ws = tenant.workspaceId;
    // The tombstone first (only if the site is the caller's), so the cron deletes its raw rows in chunks.
    const [, , , , removed] = await tenant.batch([
      tenant.rows(
        sql`INSERT INTO ${deletedSites} (site_id, workspace_id, deleted_at) SELECT id, workspace_id, ${Date.now()} FROM ${sites} WHERE id = ${id} AND workspace_id = ${ws}`,
      ),
      tenant.delete(funnels, eq(funnels.siteId, id)),
      tenant.delete(daily, eq(daily.siteId, id)),
      tenant.delete(dailyRevenue, eq(dailyRevenue.siteId, id)),
      tenant.delete(sites, eq(sites.id, id)).returning({ key: sites.siteKey }),
    ]);
    if (removed.length === 0) throw ApiError.notFound("site");
    forgetSite(platformOf(c).isolate, removed[0]!.key);
    return c.json({ success: true as const, data: { id, deleted: true as const } }, 200);
  })
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
  })
  .openapi(routes.createFunnel, async (c) => {
    const tenant = analyticsTenant(c);
    const site = await siteOf(tenant, c.req.valid("param").id);
    const body = c.req.valid("json");
    const now = Date.now();
    const [row] = await tenant
      .insert(funnels, { siteId: site.id, name: body.name, steps: body.steps, windowMinutes: body.window_minutes ?? 1440, createdAt: now, updatedAt: now })
      .returning();
    return c.json(
      { success: true as const, data: toFunnel(site.id, { id: row!.id, name: row!.name, steps: row!.steps, windowMinutes: row!.windowMinutes }) },
      201,
    );
  })
  .openapi(routes.listFunnels, async (c) => {
    const tenant = analyticsTenant(c);
    const site = await siteOf(tenant, c.req.valid("param").id);
    const rows = await tenant.select(funnels, eq(funnels.siteId, site.id)).orderBy(funnels.id);
    const data = [CHECKOUT, ...rows.map((row) => ({ id: row.id, name: row.name, steps: row.steps, windowMinutes: row.windowMinutes }))].map((funnel) =>
      toFunnel(site.id, funnel),
    );
    return c.json({ success: true as const, data, meta: { limit: data.length, has_more: false, next_cursor: null } }, 200);
  })
  .openapi(routes.getFunnel, async (c) => {
    const { id, funnel_id } = c.req.valid("param");
    const tenant = analyticsTenant(c);
    const site = await siteOf(tenant, id);
    return c.json({ success: true as const, data: toFunnel(site.id, await funnelOf(tenant, site.id, funnel_id)) }, 200);
  })
  .openapi(routes.deleteFunnel, async (c) => {
    const { id, funnel_id } = c.req.valid("param");
    const tenant = analyticsTenant(c);
    const site = await siteOf(tenant, id);
    if (funnel_id === "checkout") throw new ApiError("conflict", "The checkout funnel is built in and cannot be deleted");
    const removed = await tenant.delete(funnels, and(eq(funnels.siteId, site.id), eq(funnels.id, Number(funnel_id)))).returning({ id: funnels.id });
    if (removed.length === 0) throw ApiError.notFound("funnel");
    return c.json({ success: true as const, data: { id: Number(funnel_id), deleted: true as const } }, 200);
  })
  .openapi(routes.report, async (c) => {
    const { id, funnel_id } = c.req.valid("param");
    const tenant = analyticsTenant(c);
    const site = await siteOf(tenant, id);
    const funnel = await funnelOf(tenant, site.id, funnel_id);
    const rows = await funnelStatement(tenant, site.id, rangeOf(c.req.valid("query")), funnel);
    return c.json({ success: true as const, data: buildFunnel(funnel, rows) }, 200);
  });
