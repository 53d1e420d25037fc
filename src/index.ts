import { apiTokenRoutes } from "./identity/api-token-routes";
import { authRoutes } from "./identity/auth-routes";
import { userRoutes } from "./identity/users-routes";
import { accountRoutes } from "./packages/account/routes";
import { hrmRoutes } from "./packages/hrm/routes";
import { salesRoutes } from "./packages/sales/routes";
import { tasklyRoutes } from "./packages/taskly/routes";
import { createApp } from "./platform/app";
import { logError } from "./platform/log";
import type { Env } from "./platform/context";
import { sweepIdempotencyKeys } from "./platform/idempotency";
import { resealSweep } from "./platform/secrets";
import { runSweeps, sweepExpiredTokens } from "./platform/sweeps";
import { ssoApps } from "./sso/schema";
import { webhookEndpoints } from "./webhooks/schema";
import { packageRoutes } from "./workspace/package-routes";
import { demoPages } from "./sso/demo";
import { ssoRoutes } from "./sso/routes";
import { handleWebhookBatch } from "./webhooks/consumer";
import { dispatchEvents, sweepOutbox, type WebhookMessage } from "./webhooks/dispatch";
import { webhookRoutes } from "./webhooks/routes";
import { subscriptionRoutes } from "./workspace/subscription-routes";

export { RateLimiter } from "./platform/rate-limit/durable-object";

// Sealed signing secrets, re-encrypted by the cron under the current key after a key rotation.
const resealSecrets = resealSweep([
  { table: webhookEndpoints, column: webhookEndpoints.secret, key: [webhookEndpoints.id] },
  { table: webhookEndpoints, column: webhookEndpoints.previousSecret, key: [webhookEndpoints.id] },
  { table: ssoApps, column: ssoApps.secret, key: [ssoApps.workspaceId, ssoApps.app] },
]);

/** The composed application (tests read its route table). */
export const app = createApp([
  authRoutes,
  userRoutes,
  apiTokenRoutes,
  subscriptionRoutes,
  packageRoutes,
  webhookRoutes,
  ssoRoutes,
  ...hrmRoutes,
  ...salesRoutes,
  ...accountRoutes,
  ...tasklyRoutes,
], {
  pages: [demoPages],
  // Outbox events a request recorded go to the queue once its response is ready; the cron sweep
  // picks up whatever this misses.
  onEventsRecorded: (c, workspaceId) =>
    c.executionCtx.waitUntil(
      dispatchEvents(c.env, workspaceId).catch((error: unknown) => logError("event dispatch failed; the sweep will retry", error, { workspace_id: workspaceId })),
    ),
});

export default {
  fetch: app.fetch,
  async queue(batch, env) {
    await handleWebhookBatch(batch, env);
  },
  async scheduled(_controller, env, ctx) {
    ctx.waitUntil(runSweeps(env, [sweepExpiredTokens, sweepIdempotencyKeys, sweepOutbox, resealSecrets]));
  },
} satisfies ExportedHandler<Env, WebhookMessage>;
