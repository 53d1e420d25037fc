import { z } from "@hono/zod-openapi";
import { eq, getTableColumns } from "drizzle-orm";
import { access } from "../platform/auth/permissions";
import { evictCachedTokens } from "../platform/auth/principal";
import { ApiError } from "../platform/errors";
import { recordEvent } from "../platform/events";
import { newRouter } from "../platform/http/router";
import { defineRoute, envelope, jsonBodyOf, jsonContent } from "../platform/openapi";
import type { EventDeclaration } from "../platform/packages";
import { durableLimiter, workspaceKey } from "../platform/rate-limit/limiter";
import { PLAN_LIMITS } from "../platform/rate-limit/plans";
import { PLANS, type Plan, workspaces } from "../platform/schema";
import { platformOf } from "../platform/services";
import { directoryOf, tenantOf } from "../platform/tenancy";
import { isoTimestamp } from "../platform/time";

const tags = ["Subscription"];
/** The reference's words for this file's tag (the manifest lists them). */
export const subscriptionTags = { Subscription: "The workspace's plan (starter, pro, enterprise) and its rate limit; the owner changes it." };

const Subscription = z.object({ plan: z.enum(PLANS), rate_limit_per_minute: z.number().int(), updated_at: z.string() }).openapi("Subscription");

export const subscriptionEvents = {
  "subscription.updated": {
    description: "The workspace's plan changed",
    data: z.object({ plan: z.enum(PLANS), previous_plan: z.enum(PLANS), change: z.enum(["upgrade", "downgrade"]) }).openapi("SubscriptionChange"),
  },
} satisfies Record<string, EventDeclaration>;

const getSubscription = defineRoute(access.authenticated, {
  method: "get",
  path: "/subscription",
  operationId: "getSubscription",
  tags,
  summary: "The workspace's plan and its rate limit",
  description: "Any valid token, whatever its role or scopes. rate_limit_per_minute is the number of requests the workspace may make per minute on this plan.",
  responses: { 200: jsonContent(envelope(Subscription), "The subscription") },
});

const putSubscription = defineRoute(access.owner, {
  method: "put",
  path: "/subscription",
  operationId: "updateSubscription",
  errors: ["conflict"],
  tags,
  summary: "Change the plan (owner only); the new rate limit applies from the next request",
  description:
    "Only an owner signed in with a session: another role, or any API token (even the owner's) → 403. Fires subscription.updated (upgrade or downgrade) when the plan actually changes; the same plan answers 200 and changes nothing. A concurrent plan change → 409 conflict.",
  request: { body: jsonBodyOf(z.strictObject({ plan: z.enum(PLANS) }).openapi("UpdateSubscription", { example: { plan: "pro" } })) },
  responses: { 200: jsonContent(envelope(Subscription), "The subscription") },
});

const toSubscription = (row: { plan: Plan; planUpdatedAt: number }) => ({
  plan: row.plan,
  rate_limit_per_minute: PLAN_LIMITS[row.plan],
  updated_at: isoTimestamp(row.planUpdatedAt),
});

export const subscriptionRoutes = newRouter()
  .openapi(getSubscription, async (c) => {
    const row = await directoryOf(c).selectOwn(getTableColumns(workspaces)).get();
    if (!row) throw ApiError.notFound("workspace");
    return c.json({ success: true as const, data: toSubscription(row) }, 200);
  })
  .openapi(putSubscription, async (c) => {
    const { plan } = c.req.valid("json");
    const directory = directoryOf(c);
    const workspaceId = directory.workspaceId;
    const current = await directory.selectOwn(getTableColumns(workspaces)).get();
    if (!current) throw ApiError.notFound("workspace");
    if (current.plan === plan) return c.json({ success: true as const, data: toSubscription(current) }, 200);

    const now = Date.now();
    const change = PLANS.indexOf(plan) > PLANS.indexOf(current.plan) ? "upgrade" : "downgrade";
    // Only if this statement changed the plan it read (a concurrent change wins).
    const updated = await directory.updateOwn({ plan, planUpdatedAt: now, updatedAt: now }, eq(workspaces.plan, current.plan)).returning();
    const row = updated[0];
    if (!row) throw new ApiError("conflict", "The plan was changed concurrently; read it again");
    // The plan lives in the directory, the event in the workspace's shard: a second write, after the first.
    await recordEvent(tenantOf(c), { type: "subscription.updated", data: { plan, previous_plan: current.plan, change } }, now).run();

    await durableLimiter(c.env.RATE_LIMITER, platformOf(c).isolate).setLimit(workspaceKey(workspaceId), PLAN_LIMITS[plan]);
    evictCachedTokens(c, (p) => p.workspace.id === workspaceId);
    return c.json({ success: true as const, data: toSubscription(row) }, 200);
  });
