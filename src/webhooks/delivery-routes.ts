import { z } from "@hono/zod-openapi";
import { and, eq } from "drizzle-orm";
import { principalOf } from "../platform/auth/middleware";
import { access } from "../platform/auth/permissions";
import { configOf } from "../platform/config";
import { ApiError } from "../platform/errors";
import { fields } from "../platform/fields";
import { linkNextPage } from "../platform/http/links";
import { newRouter } from "../platform/http/router";
import { defineRoute, envelope, idPathParam, jsonContent } from "../platform/openapi";
import { idPage, pageQueryShape } from "../platform/resource/id-page";
import { ListMeta } from "../platform/resource/routes";
import { events } from "../platform/schema";
import { tenantOf } from "../platform/tenancy";
import { isoTimestamp } from "../platform/time";
import { eventPayload } from "./consumer";
import { sendMessages } from "./dispatch";
import { EndpointParam, tags } from "./endpoint-routes";
import { DELIVERY_STATUSES, webhookDeliveries, webhookEndpoints } from "./schema";

const Delivery = z
  .object({
    id: z.number().int(),
    event_id: z.string(),
    event_type: z.string(),
    attempt: z.number().int(),
    status: z.enum(DELIVERY_STATUSES),
    response_status: z.number().int().nullable(),
    duration_ms: z.number().int().nullable(),
    error: z.string().nullable(),
    next_attempt_at: fields.timestamp().nullable(),
    created_at: fields.timestamp(),
  })
  .openapi("WebhookDelivery");

const toDelivery = (row: typeof webhookDeliveries.$inferSelect): z.infer<typeof Delivery> => ({
  id: row.id,
  event_id: row.eventId,
  event_type: row.eventType,
  attempt: row.attempt,
  status: row.status,
  response_status: row.responseStatus,
  duration_ms: row.durationMs,
  error: row.lastError,
  next_attempt_at: isoTimestamp(row.nextAttemptAt),
  created_at: isoTimestamp(row.createdAt),
});

const DeliveryDetail = Delivery.extend({
  request: z.object({ body: z.record(z.string(), z.unknown()).openapi({ description: "The event as every attempt sends it" }) }),
  response: z.object({
    status: z.number().int().nullable(),
    body: z.string().nullable().openapi({ description: "The first 2 KiB of the last answer's body, as text" }),
  }),
}).openapi("WebhookDeliveryDetail");

const DeliveryParams = z.object({ id: idPathParam("id"), delivery_id: idPathParam("delivery_id") });

const routes = {
  deliveries: defineRoute(access.admin, {
    method: "get",
    path: "/webhooks/{id}/deliveries",
    operationId: "listWebhookDeliveries",
    tags,
    summary: "The delivery log of an endpoint, newest first",
    description:
      "Admins and owners (an API token needs the admin scope). One row per delivery of an event to this endpoint, with its attempts so far, the last response status and error, and when the next attempt is due; status filters. Cursor-paged.",
    request: {
      params: EndpointParam,
      query: z.strictObject({ ...pageQueryShape, status: z.enum(DELIVERY_STATUSES).optional() }),
    },
    responses: { 200: jsonContent(z.object({ success: z.literal(true), data: z.array(Delivery), meta: ListMeta }), "A page of deliveries") },
  }),
  get: defineRoute(access.admin, {
    method: "get",
    path: "/webhooks/{id}/deliveries/{delivery_id}",
    operationId: "getWebhookDelivery",
    tags,
    summary: "One delivery: what was sent and what came back",
    description:
      "Admins and owners (an API token needs the admin scope). The delivery with the request body every attempt sends (the event) and the last response's status and first 2 KiB of its body. A delivery of another endpoint → 404.",
    request: { params: DeliveryParams },
    responses: { 200: jsonContent(envelope(DeliveryDetail), "The delivery") },
  }),
  retry: defineRoute(access.admin, {
    method: "post",
    path: "/webhooks/{id}/deliveries/{delivery_id}/retry",
    operationId: "retryWebhookDelivery",
    tags,
    summary: "Redeliver now",
    description:
      "Admins and owners (an API token needs the admin scope). Puts the delivery back to pending and queues an attempt now, whatever its status (a delivered event is sent again with the same webhook-id; to a disabled endpoint it fails at once). A delivery of another endpoint → 404.",
    request: { params: DeliveryParams },
    responses: { 200: jsonContent(envelope(Delivery), "The delivery, pending again") },
  }),
};

export const deliveryRoutes = newRouter()
  .openapi(routes.deliveries, async (c) => {
    const { id } = c.req.valid("param");
    const query = c.req.valid("query");
    const tenant = tenantOf(c);
    const endpoint = await tenant.select(webhookEndpoints, eq(webhookEndpoints.id, id)).get();
    if (!endpoint) throw ApiError.notFound("webhook endpoint");
    const page = await idPage(
      tenant,
      webhookDeliveries,
      `webhook_deliveries:${id}:${query.status ?? "all"}`,
      query,
      [eq(webhookDeliveries.endpointId, id), query.status ? eq(webhookDeliveries.status, query.status) : undefined],
      configOf(c.env).cursorKey,
    );
    linkNextPage(c, page.meta);
    return c.json({ success: true as const, data: page.rows.map(toDelivery), meta: page.meta }, 200);
  })
  .openapi(routes.get, async (c) => {
    const { id, delivery_id } = c.req.valid("param");
    const tenant = tenantOf(c);
    const [found] = await tenant
      .selectFrom(
        { delivery: webhookDeliveries, event: events },
        webhookDeliveries,
        eq(webhookDeliveries.id, delivery_id),
        eq(webhookDeliveries.endpointId, id),
      )
      .innerJoin(events, tenant.scope(events, eq(events.id, webhookDeliveries.eventId)))
      .limit(1);
    if (!found) throw ApiError.notFound("delivery");
    const { delivery, event } = found;
    return c.json(
      {
        success: true as const,
        data: {
          ...toDelivery(delivery),
          request: { body: eventPayload(event) as Record<string, unknown> },
          response: { status: delivery.responseStatus, body: delivery.responseBody },
        },
      },
      200,
    );
  })
  .openapi(routes.retry, async (c) => {
    const { id, delivery_id } = c.req.valid("param");
    const tenant = tenantOf(c);
    const now = Date.now();
    const [row] = await tenant
      .update(
        webhookDeliveries,
        { status: "pending", lockedUntil: null, nextAttemptAt: now, updatedAt: now },
        and(eq(webhookDeliveries.id, delivery_id), eq(webhookDeliveries.endpointId, id)),
      )
      .returning();
    if (!row) throw ApiError.notFound("delivery");
    await sendMessages(c.env, principalOf(c).shard, [{ id: row.id, workspaceId: row.workspaceId }]);
    return c.json({ success: true as const, data: toDelivery(row) }, 200);
  });
