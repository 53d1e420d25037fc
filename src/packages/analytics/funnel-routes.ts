import { z } from "@hono/zod-openapi";
import { and, eq } from "drizzle-orm";
import { access } from "../../platform/auth/permissions";
import { ApiError } from "../../platform/errors";
import { fields } from "../../platform/fields";
import { newRouter } from "../../platform/http/router";
import { defineRoute, envelope, idPathParam, jsonBodyOf, jsonContent } from "../../platform/openapi";
import { ListMeta } from "../../platform/resource/routes";
import { analyticsTenant, siteOf } from "./collect";
import { parseFilters } from "./filters";
import { buildFunnel, CHECKOUT, type FunnelDefinition, funnelStatement } from "./funnels";
import { RangeQuery, rangeOf } from "./report-routes";
import { funnels } from "./schema";
import { SiteParam, tags } from "./site-routes";

const FunnelParams = z.object({
  id: idPathParam("id"),
  funnel_id: z
    .string()
    .regex(/^(checkout|[1-9][0-9]{0,15})$/)
    .openapi({ param: { name: "funnel_id", in: "path" }, description: "A funnel id, or checkout (built in)", example: "checkout" }),
});

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

async function funnelOf(tenant: ReturnType<typeof analyticsTenant>, siteId: number, id: string): Promise<FunnelDefinition> {
  if (id === "checkout") return CHECKOUT;
  const row = await tenant.select(funnels, eq(funnels.siteId, siteId), eq(funnels.id, Number(id))).get();
  if (!row) throw ApiError.notFound("funnel");
  return { id: row.id, name: row.name, steps: row.steps, windowMinutes: row.windowMinutes };
}

const routes = {
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

export const funnelRoutes = newRouter()
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
    const query = c.req.valid("query");
    const filters = parseFilters(query.filters);
    if (filters.some((filter) => filter.property === "goal")) throw ApiError.validation([{ path: "filters", message: "goal filters do not apply to funnels" }]);
    const rows = await funnelStatement(tenant, site.id, rangeOf(query), funnel, filters);
    return c.json({ success: true as const, data: buildFunnel(funnel, rows) }, 200);
  });
