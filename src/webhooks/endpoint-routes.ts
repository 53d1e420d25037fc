import { z } from "@hono/zod-openapi";
import { eq } from "drizzle-orm";
import type { Context } from "hono";
import { principalOf } from "../platform/auth/middleware";
import { access } from "../platform/auth/permissions";
import { configOf } from "../platform/config";
import type { AppEnv } from "../platform/context";
import { ApiError } from "../platform/errors";
import { newEventId, recordEvent } from "../platform/events";
import { fields } from "../platform/fields";
import { linkNextPage } from "../platform/http/links";
import { newRouter } from "../platform/http/router";
import { defineRoute, envelope, IdParam, jsonBodyOf, jsonContent } from "../platform/openapi";
import type { EventDeclaration } from "../platform/packages";
import { idPage, PageQuery } from "../platform/resource/id-page";
import { Deleted, ListMeta } from "../platform/resource/routes";
import { sealSecret } from "../platform/secrets";
import { platformOf } from "../platform/services";
import { tenantOf } from "../platform/tenancy";
import { isoTimestamp } from "../platform/time";
import { outboundUrlProblem } from "../platform/url-policy";
import { forgetSubscribers } from "./dispatch";
import { webhookDeliveries, webhookEndpoints } from "./schema";
import { newSigningSecret } from "./signing";

export const tags = ["Webhooks"];
/** The reference's words for this file's tag (the manifest lists them). */
export const webhookTags = {
  Webhooks:
    "Signed (Standard Webhooks) event deliveries to your HTTPS endpoints, with retries, a delivery log, test events and secret rotation. Event payloads are documented under webhooks.",
};
/** The event types of the packages in this build an endpoint may subscribe to (webhook.test is sent on request). */
const subscribable = (c: Context<AppEnv>) => Object.keys(platformOf(c).registry.events()).filter((type) => type !== "webhook.test");
export const PREVIOUS_SECRET_GRACE_MS = 24 * 3600 * 1000;

export const webhookTestEvents = {
  "webhook.test": {
    description: "Sent by POST /webhooks/{id}/test to that endpoint only",
    data: z.object({ webhook_id: z.number().int() }).openapi("WebhookTest"),
  },
} satisfies Record<string, EventDeclaration>;

const Endpoint = z
  .object({
    id: z.number().int(),
    url: z.string(),
    description: z.string().nullable(),
    events: z.array(z.string()),
    enabled: z.boolean(),
    disabled_reason: z.string().nullable().openapi({ description: "gone (answered 410) or failing (5 days of failed deliveries)" }),
    created_at: fields.timestamp(),
    updated_at: fields.timestamp(),
  })
  .openapi("WebhookEndpoint");
const EndpointWithSecret = Endpoint.extend({ secret: z.string().openapi({ description: "whsec_…, shown once" }) }).openapi("WebhookEndpointWithSecret");

const EventList = z
  .array(
    z
      .string()
      // Whether it names an event of this build is checked by the route (the packages know): checkEvents.
      .regex(/^(\*|[a-z][a-z_]*(\.[a-z][a-z_]*)+)$/, "must be * or an event type such as invoice.created")
      // The document lists the event types of the packages in this build here (see openApiDocument).
      .openapi({ "x-enum": "event-types" }),
  )
  .min(1, "must name at least one event type or *")
  .max(50, "must name at most 50 event types")
  .transform((list) => [...new Set(list)])
  .openapi({ description: 'Event types (see the webhooks section), or ["*"] for all', example: ["invoice.created", "payment.received"] });
const writable = { url: z.string().max(2048, "must be at most 2048 characters"), events: EventList, description: fields.text(500).nullable() };
const CreateEndpoint = z
  .strictObject(writable)
  .partial({ description: true })
  .openapi("CreateWebhookEndpoint", {
    example: { url: "https://hooks.example.com/business-platform", events: ["invoice.created", "payment.received"], description: "Billing sync" },
  });
const UpdateEndpoint = z
  .strictObject({ ...writable, enabled: z.boolean() })
  .partial()
  .openapi("UpdateWebhookEndpoint", {
    example: { url: "https://hooks.example.com/business-platform", events: ["invoice.created", "payment.received"], enabled: true },
  });

type EndpointRow = typeof webhookEndpoints.$inferSelect;
const toEndpoint = (row: EndpointRow): z.infer<typeof Endpoint> => ({
  id: row.id,
  url: row.url,
  description: row.description,
  events: row.events,
  enabled: row.enabled,
  disabled_reason: row.disabledReason,
  created_at: isoTimestamp(row.createdAt),
  updated_at: isoTimestamp(row.updatedAt),
});
export const EndpointParam = IdParam;
const allowInsecure = (env: { ALLOW_INSECURE_WEBHOOK_URLS: string }) => env.ALLOW_INSECURE_WEBHOOK_URLS === "true";

/** Every event type named must be one the packages of this build fire (or *). */
function checkEvents(c: Context<AppEnv>, events: string[] | undefined) {
  if (events === undefined) return;
  const known = subscribable(c);
  const unknown = events.flatMap((type, i) =>
    type === "*" || known.includes(type) ? [] : [{ path: `events.${i}`, message: `must be * or one of ${known.join(", ")} (not ${type})` }],
  );
  if (unknown.length > 0) throw ApiError.validation(unknown);
}

function checkUrl(url: string | undefined, env: { ALLOW_INSECURE_WEBHOOK_URLS: string }) {
  if (url === undefined) return;
  const problem = outboundUrlProblem(url, allowInsecure(env));
  if (problem) throw ApiError.validation([{ path: "url", message: problem }]);
}

async function recordTestEvent(tenant: ReturnType<typeof tenantOf>, endpointId: number): Promise<string> {
  const id = newEventId();
  await recordEvent(tenant, { id, type: "webhook.test", data: { webhook_id: endpointId } }, Date.now()).run();
  return id;
}

const routes = {
  list: defineRoute(access.admin, {
    method: "get",
    path: "/webhooks",
    operationId: "listWebhooks",
    tags,
    summary: "List webhook endpoints (never their secrets), newest first",
    description:
      "Admins and owners (an API token needs the admin scope). Cursor-paged. A disabled endpoint shows why in disabled_reason: gone (it answered 410) or failing (5 days of failed deliveries).",
    request: { query: PageQuery },
    responses: { 200: jsonContent(z.object({ success: z.literal(true), data: z.array(Endpoint), meta: ListMeta }), "A page of endpoints") },
  }),
  create: defineRoute(access.admin, {
    method: "post",
    path: "/webhooks",
    operationId: "createWebhook",
    tags,
    summary: "Subscribe an https endpoint to events; the signing secret is shown once",
    description:
      'Admins and owners (an API token needs the admin scope). url must be https on a public host (no private, loopback or link-local address) → otherwise 400; events: ["*"] or any of the event types documented under webhooks. The whsec_… secret is in this response only; deliveries are signed with it per Standard Webhooks.',
    request: { body: jsonBodyOf(CreateEndpoint) },
    responses: { 201: jsonContent(envelope(EndpointWithSecret), "The endpoint and its secret") },
  }),
  get: defineRoute(access.admin, {
    method: "get",
    path: "/webhooks/{id}",
    operationId: "getWebhook",
    tags,
    summary: "Get a webhook endpoint",
    description:
      "Admins and owners (an API token needs the admin scope). The endpoint's settings and state, never its secret (rotate it to get a new one). Another workspace's endpoint → 404.",
    request: { params: EndpointParam },
    responses: { 200: jsonContent(envelope(Endpoint), "The endpoint") },
  }),
  update: defineRoute(access.admin, {
    method: "put",
    path: "/webhooks/{id}",
    operationId: "updateWebhook",
    tags,
    summary: "Change url, events, description or enabled",
    description:
      "Admins and owners (an API token needs the admin scope); send only the fields to change. url follows the rules of POST /webhooks (https, public host → otherwise 400). Re-enabling an endpoint the platform disabled clears disabled_reason and its failure streak; a disabled endpoint gets no deliveries.",
    request: { params: EndpointParam, body: jsonBodyOf(UpdateEndpoint) },
    responses: { 200: jsonContent(envelope(Endpoint), "The endpoint") },
  }),
  remove: defineRoute(access.admin, {
    method: "delete",
    path: "/webhooks/{id}",
    operationId: "deleteWebhook",
    tags,
    summary: "Delete a webhook endpoint and its delivery log",
    description: "Admins and owners (an API token needs the admin scope). Deliveries still pending for it are dropped with the log.",
    request: { params: EndpointParam },
    responses: { 200: jsonContent(envelope(Deleted), "Deleted") },
  }),
  rotate: defineRoute(access.admin, {
    method: "post",
    path: "/webhooks/{id}/rotate-secret",
    operationId: "rotateWebhookSecret",
    errors: ["conflict"],
    tags,
    summary: "Rotate the signing secret; the old one keeps co-signing for 24 h",
    description:
      "Admins and owners (an API token needs the admin scope). The new secret is in this response only; for 24 hours each delivery carries signatures with both secrets, so the receiver can switch without losing deliveries. A rotation racing with another → 409 conflict.",
    request: { params: EndpointParam },
    responses: { 200: jsonContent(envelope(z.object({ secret: z.string() })), "The new secret, shown once") },
  }),
  test: defineRoute(access.admin, {
    method: "post",
    path: "/webhooks/{id}/test",
    operationId: "sendWebhookTest",
    errors: ["conflict"],
    tags,
    summary: "Send a webhook.test event to this endpoint only",
    description:
      "Admins and owners (an API token needs the admin scope). Queues a webhook.test event (data: {webhook_id}) for this endpoint, delivered and logged like any other; follow it in the delivery log. A disabled endpoint → 409 conflict (enable it first).",
    request: { params: EndpointParam },
    responses: { 200: jsonContent(envelope(z.object({ event_id: z.string() })), "The test event was queued") },
  }),
};

export const endpointRoutes = newRouter()
  .openapi(routes.list, async (c) => {
    const page = await idPage(tenantOf(c), webhookEndpoints, "webhooks", c.req.valid("query"), [], configOf(c.env).cursorKey);
    linkNextPage(c, page.meta);
    return c.json({ success: true as const, data: page.rows.map(toEndpoint), meta: page.meta }, 200);
  })
  .openapi(routes.create, async (c) => {
    const body = c.req.valid("json");
    checkUrl(body.url, c.env);
    checkEvents(c, body.events);
    const secret = newSigningSecret();
    const now = Date.now();
    const [row] = await tenantOf(c)
      .insert(webhookEndpoints, {
        url: body.url,
        description: body.description ?? null,
        events: body.events,
        enabled: true,
        secret: await sealSecret(secret, configOf(c.env).sealingKeys),
        createdAt: now,
        updatedAt: now,
      })
      .returning();
    forgetSubscribers(platformOf(c).isolate, principalOf(c).workspace.id);
    return c.json({ success: true as const, data: { ...toEndpoint(row!), secret } }, 201);
  })
  .openapi(routes.get, async (c) => {
    const row = await tenantOf(c)
      .select(webhookEndpoints, eq(webhookEndpoints.id, c.req.valid("param").id))
      .get();
    if (!row) throw ApiError.notFound("webhook endpoint");
    return c.json({ success: true as const, data: toEndpoint(row) }, 200);
  })
  .openapi(routes.update, async (c) => {
    const body = c.req.valid("json");
    checkUrl(body.url, c.env);
    checkEvents(c, body.events);
    const [row] = await tenantOf(c)
      .update(
        webhookEndpoints,
        { ...body, ...(body.enabled ? { disabledReason: null, failingSince: null } : {}), updatedAt: Date.now() },
        eq(webhookEndpoints.id, c.req.valid("param").id),
      )
      .returning();
    if (!row) throw ApiError.notFound("webhook endpoint");
    forgetSubscribers(platformOf(c).isolate, principalOf(c).workspace.id);
    return c.json({ success: true as const, data: toEndpoint(row) }, 200);
  })
  .openapi(routes.remove, async (c) => {
    const { id } = c.req.valid("param");
    const tenant = tenantOf(c);
    const [, removed] = await tenant.batch([
      tenant.delete(webhookDeliveries, eq(webhookDeliveries.endpointId, id)),
      tenant.delete(webhookEndpoints, eq(webhookEndpoints.id, id)).returning({ id: webhookEndpoints.id }),
    ]);
    if (removed.length === 0) throw ApiError.notFound("webhook endpoint");
    forgetSubscribers(platformOf(c).isolate, principalOf(c).workspace.id);
    return c.json({ success: true as const, data: { id, deleted: true as const } }, 200);
  })
  .openapi(routes.rotate, async (c) => {
    const { id } = c.req.valid("param");
    const tenant = tenantOf(c);
    const secret = newSigningSecret();
    const now = Date.now();
    const current = await tenant.select(webhookEndpoints, eq(webhookEndpoints.id, id)).get();
    if (!current) throw ApiError.notFound("webhook endpoint");
    // Conditional on the secret read, so two concurrent rotations cannot drop a secret silently.
    const [row] = await tenant
      .update(
        webhookEndpoints,
        {
          secret: await sealSecret(secret, configOf(c.env).sealingKeys),
          previousSecret: current.secret,
          previousSecretExpiresAt: now + PREVIOUS_SECRET_GRACE_MS,
          updatedAt: now,
        },
        eq(webhookEndpoints.id, id),
        eq(webhookEndpoints.secret, current.secret),
      )
      .returning();
    if (!row) throw new ApiError("conflict", "The secret was rotated concurrently; rotate again if needed");
    return c.json({ success: true as const, data: { secret } }, 200);
  })
  .openapi(routes.test, async (c) => {
    const { id } = c.req.valid("param");
    const tenant = tenantOf(c);
    const endpoint = await tenant.select(webhookEndpoints, eq(webhookEndpoints.id, id)).get();
    if (!endpoint) throw ApiError.notFound("webhook endpoint");
    if (!endpoint.enabled) throw new ApiError("conflict", "The endpoint is disabled; enable it first");
    const eventId = await recordTestEvent(tenant, id);
    return c.json({ success: true as const, data: { event_id: eventId } }, 200);
  });
