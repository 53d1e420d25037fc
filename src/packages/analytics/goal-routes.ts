import { z } from "@hono/zod-openapi";
import { and, eq } from "drizzle-orm";
import { access } from "../../platform/auth/permissions";
import { ApiError } from "../../platform/errors";
import { fields } from "../../platform/fields";
import { newRouter } from "../../platform/http/router";
import { defineRoute, envelope, idPathParam, jsonBodyOf, jsonContent } from "../../platform/openapi";
import { Deleted, ListMeta } from "../../platform/resource/routes";
import { clock, isoTimestamp } from "../../platform/time";
import { analyticsTenant, siteOf } from "./collect";
import { goalName } from "./queries";
import { goals } from "./schema";
import { SiteParam, tags } from "./site-routes";

const GoalParams = z.object({ id: idPathParam("id"), goal_id: idPathParam("goal_id") });
const CreateGoal = z
  .strictObject({
    type: z.enum(["event", "page"]),
    value: z.string().trim().min(1).max(200).openapi({ description: "event: an event name; page: a path starting with / (`*` matches anything)" }),
    revenue: z.boolean().optional().openapi({ description: "A revenue goal: the revenue its events carry is summed (besides purchase events). Default false" }),
  })
  .superRefine((goal, context) => {
    if (goal.type === "page" && !goal.value.startsWith("/"))
      context.addIssue({ code: "custom", path: ["value"], message: "a page goal must be a path starting with /" });
    if (goal.type === "event" && !/^[a-z0-9_.:-]{1,64}$/.test(goal.value))
      context.addIssue({ code: "custom", path: ["value"], message: "must be an event name: 1–64 of a-z, 0-9, _ . : -" });
  })
  .openapi("CreateGoal", { example: { type: "event", value: "signup" } });
const Goal = z
  .object({
    id: z.number().int(),
    site_id: z.number().int(),
    type: z.enum(["event", "page"]),
    value: z.string(),
    name: z.string().openapi({ description: "The event name, or Visit /path" }),
    revenue: z.boolean(),
    created_at: fields.timestamp(),
  })
  .openapi("AnalyticsGoal");
const toGoal = (row: typeof goals.$inferSelect): z.infer<typeof Goal> => ({
  id: row.id,
  site_id: row.siteId,
  type: row.type,
  value: row.value,
  name: goalName(row),
  revenue: row.revenue,
  created_at: isoTimestamp(row.createdAt),
});

const write = { ...access.write("analytics") };
const routes = {
  create: defineRoute(write, {
    method: "post",
    path: "/analytics/sites/{id}/goals",
    operationId: "createGoal",
    tags,
    summary: "Add a goal: an event or a page visit whose completions stats count",
    description:
      "Members and above (an API token needs analytics:write). Stats list each goal's uniques, total and conversion rate; filters=goal==<value> keeps its converters. A revenue goal's revenue counts in stats (purchase events always do). The same type and value twice → 409.",
    request: { params: SiteParam, body: jsonBodyOf(CreateGoal) },
    responses: { 201: jsonContent(envelope(Goal), "The goal") },
    errors: ["conflict"],
  }),
  list: defineRoute(
    { ...access.read("analytics") },
    {
      method: "get",
      path: "/analytics/sites/{id}/goals",
      operationId: "listGoals",
      tags,
      summary: "The site's goals",
      description: "Members and above (an API token needs analytics:read). Oldest first, one page.",
      request: { params: SiteParam },
      responses: { 200: jsonContent(z.object({ success: z.literal(true), data: z.array(Goal), meta: ListMeta }), "Every goal") },
    },
  ),
  remove: defineRoute(write, {
    method: "delete",
    path: "/analytics/sites/{id}/goals/{goal_id}",
    operationId: "deleteGoal",
    tags,
    summary: "Delete a goal (its events stay)",
    description: "Members and above (an API token needs analytics:write).",
    request: { params: GoalParams },
    responses: { 200: jsonContent(envelope(Deleted), "Deleted") },
  }),
};

export const goalRoutes = newRouter()
  .openapi(routes.create, async (c) => {
    const tenant = analyticsTenant(c);
    const site = await siteOf(tenant, c.req.valid("param").id);
    const body = c.req.valid("json");
    const [row] = await tenant
      .insert(goals, { siteId: site.id, type: body.type, value: body.value, revenue: body.revenue ?? false, createdAt: clock.now() })
      .onConflictDoNothing()
      .returning();
    if (!row) throw new ApiError("conflict", `This site already has the ${body.type} goal ${body.value}`);
    return c.json({ success: true as const, data: toGoal(row) }, 201);
  })
  .openapi(routes.list, async (c) => {
    const tenant = analyticsTenant(c);
    const site = await siteOf(tenant, c.req.valid("param").id);
    const rows = await tenant.select(goals, eq(goals.siteId, site.id)).orderBy(goals.id);
    return c.json({ success: true as const, data: rows.map(toGoal), meta: { limit: rows.length, has_more: false, next_cursor: null } }, 200);
  })
  .openapi(routes.remove, async (c) => {
    const { id, goal_id } = c.req.valid("param");
    const tenant = analyticsTenant(c);
    const site = await siteOf(tenant, id);
    const removed = await tenant.delete(goals, and(eq(goals.siteId, site.id), eq(goals.id, goal_id))).returning({ id: goals.id });
    if (removed.length === 0) throw ApiError.notFound("goal");
    return c.json({ success: true as const, data: { id: goal_id, deleted: true as const } }, 200);
  });
