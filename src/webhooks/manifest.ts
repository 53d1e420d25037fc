import { definePackage } from "../platform/packages";
import { handleWebhookBatch } from "./consumer";
import { deliveryRoutes } from "./delivery-routes";
import { dispatchAfterRequest, sweepOutbox, type WebhookMessage } from "./dispatch";
import { endpointRoutes, webhookTags, webhookTestEvents } from "./endpoint-routes";
import { webhookPages } from "./pages";
import { webhookDeliveries, webhookEndpoints } from "./schema";

/** Signed event delivery: endpoints, the outbox fan-out, the queue consumer and the sweeps. Always on. */
export default definePackage({
  name: "webhooks",
  title: "Webhooks",
  tier: "core",
  description: "Signed webhook deliveries of every package's events.",
  dependsOn: [],
  routers: [endpointRoutes, deliveryRoutes],
  tags: webhookTags,
  tables: [webhookEndpoints, webhookDeliveries],
  events: webhookTestEvents,
  sealedColumns: [
    { table: webhookEndpoints, column: webhookEndpoints.secret, key: [webhookEndpoints.id] },
    { table: webhookEndpoints, column: webhookEndpoints.previousSecret, key: [webhookEndpoints.id] },
  ],
  sweeps: [sweepOutbox],
  pages: [webhookPages],
  nav: [{ href: "/app/settings/webhooks", label: "Webhooks", group: "Settings", admin: true }],
  consumers: { webhooks: (batch, env, worker) => handleWebhookBatch(batch as MessageBatch<WebhookMessage>, env, worker) },
  // After a request that recorded events answers, fan them out; the cron sweep picks up what this misses.
  onEventsRecorded: (env, workspace, worker) => dispatchAfterRequest(env, workspace, worker),
});
