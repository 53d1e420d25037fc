import { z } from "@hono/zod-openapi";
import { principalOf } from "../platform/auth/middleware";
import { access } from "../platform/auth/permissions";
import { ApiError } from "../platform/errors";
import { newRouter } from "../platform/http/router";
import { defineRoute, jsonContent } from "../platform/openapi";
import { platformOf } from "../platform/services";
import { analyticsOf, tenantOf } from "../platform/tenancy";
import { clock } from "../platform/time";
import { PERIODS, PeriodQuery, periodFromQuery } from "../platform/widgets";
import { allWidgets, computeWidgets, refusal } from "./widget-runner";

const tags = ["Dashboard"];
export const dashboardTags = {
  Dashboard:
    "The widgets of the enabled packages whose data the caller may read, computed in one database round trip. Money values are objects keyed by currency in minor units; percentages have one decimal or are null.",
};

const Widget = z
  .object({
    key: z.string().openapi({ example: "account.revenue" }),
    package: z.string().openapi({ example: "account" }),
    title: z.string(),
    kind: z.enum(["stat", "series", "breakdown", "list"]),
    unit: z.enum(["count", "money", "percent", "minutes"]),
    link: z
      .string()
      .nullable()
      .openapi({ description: "The web app's list this widget summarises, with its filters and period", example: "/app/invoices?overdue=true" }),
    data: z
      .union([
        z
          .object({
            value: z.unknown(),
            previous: z.unknown().openapi({ description: "Its value over the previous period of the same length; null for a figure of now" }),
          })
          .openapi({ description: "stat" }),
        z
          .object({ interval: z.enum(["day", "week", "month"]), points: z.array(z.object({ date: z.string(), value: z.unknown() })) })
          .openapi({ description: "series" }),
        z.object({ items: z.array(z.object({ label: z.string(), value: z.unknown() })) }).openapi({ description: "breakdown (largest first)" }),
        z.object({ items: z.array(z.object({ id: z.number().int(), label: z.string() }).passthrough()) }).openapi({ description: "list (at most 5)" }),
      ])
      .openapi({
        description:
          "stat: {value, previous}; series: {interval, points}; breakdown: {items: [{label, value}]}; list: {items: [{id, label, …}]}. Money values: {CUR: minor units}.",
      }),
  })
  .openapi("Widget");

const DashboardMeta = z
  .object({ period: z.enum([...PERIODS, "custom"]).openapi({ description: "custom: from/to were sent" }), from: z.string(), to: z.string() })
  .openapi("DashboardMeta");

const dashboard = defineRoute(access.authenticated, {
  method: "get",
  path: "/dashboard",
  operationId: "getDashboard",
  tags,
  summary: "Every widget the caller may see, for a period",
  description:
    "Any valid token. A widget is shown when its package is enabled and the caller may read every resource it is computed from (a contacts:read token sees only contacts widgets). widgets=a,b picks some; an unknown key → 400. A period is named (period=30d) or custom (from and to, at most 400 days; series by day up to 31 days, by week up to 180, else by month).",
  request: {
    query: z.strictObject({
      ...PeriodQuery,
      widgets: z.string().max(2000).optional().openapi({ description: "Comma-separated widget keys", example: "account.revenue,sales.win_rate" }),
    }),
  },
  responses: { 200: jsonContent(z.object({ success: z.literal(true), data: z.array(Widget), meta: DashboardMeta }), "The widgets, in dashboard order") },
});

const one = defineRoute(access.authenticated, {
  method: "get",
  path: "/dashboard/widgets/{key}",
  operationId: "getWidget",
  errors: ["package_disabled"],
  tags,
  summary: "One widget",
  description:
    "Any valid token that may read every resource the widget is computed from → otherwise 403 forbidden; its package disabled → 403 package_disabled; an unknown key → 404. The period rules are those of GET /dashboard.",
  request: {
    params: z.object({
      key: z
        .string()
        .max(100)
        .openapi({ param: { name: "key", in: "path" }, example: "account.revenue" }),
    }),
    query: z.strictObject(PeriodQuery),
  },
  responses: { 200: jsonContent(z.object({ success: z.literal(true), data: Widget, meta: DashboardMeta }), "The widget") },
});

export const dashboardRoutes = newRouter()
  .openapi(dashboard, async (c) => {
    const query = c.req.valid("query");
    const now = clock.now();
    const period = periodFromQuery(query, now);
    const { registry } = platformOf(c);
    const all = allWidgets(registry);
    const wanted = query.widgets
      ?.split(",")
      .map((key) => key.trim())
      .filter(Boolean);
    const unknown = wanted?.filter((key) => !all.some((entry) => entry.widget.key === key)) ?? [];
    if (unknown.length > 0) throw ApiError.validation([{ path: "widgets", message: `unknown widget ${unknown.join(", ")}` }]);
    const principal = principalOf(c);
    const tenant = tenantOf(c);
    const visible = all.filter((entry) => (!wanted || wanted.includes(entry.widget.key)) && !refusal(entry, principal, tenant, registry));
    const data = (await computeWidgets(visible, tenant, period, analyticsOf(c), now)) as z.infer<typeof Widget>[];
    return c.json({ success: true as const, data, meta: { period: period.name, from: period.from, to: period.to } }, 200);
  })
  .openapi(one, async (c) => {
    const { key } = c.req.valid("param");
    const now = clock.now();
    const period = periodFromQuery(c.req.valid("query"), now);
    const { registry } = platformOf(c);
    const entry = allWidgets(registry).find((candidate) => candidate.widget.key === key);
    if (!entry) throw ApiError.notFound("widget");
    const tenant = tenantOf(c);
    const refused = refusal(entry, principalOf(c), tenant, registry);
    if (refused) throw refused;
    const [data] = (await computeWidgets([entry], tenant, period, analyticsOf(c), now)) as z.infer<typeof Widget>[];
    return c.json({ success: true as const, data: data!, meta: { period: period.name, from: period.from, to: period.to } }, 200);
  });
