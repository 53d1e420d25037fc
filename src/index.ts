import { apiTokenRoutes } from "./identity/api-token-routes";
import { authRoutes } from "./identity/auth-routes";
import { userRoutes } from "./identity/users-routes";
import { salesRoutes } from "./packages/sales/routes";
import { createApp } from "./platform/app";
import type { Env } from "./platform/context";
import { sweepIdempotencyKeys } from "./platform/idempotency";
import { runSweeps, sweepExpiredTokens } from "./platform/sweeps";
import { subscriptionRoutes } from "./workspace/subscription-routes";

export { RateLimiter } from "./platform/rate-limit/durable-object";

const app = createApp([authRoutes, userRoutes, apiTokenRoutes, subscriptionRoutes, ...salesRoutes]);

export default {
  fetch: app.fetch,
  async queue(batch) {
    // No producer sends yet (webhook delivery arrives with the webhooks package): keep anything for later.
    batch.retryAll();
  },
  async scheduled(_controller, env, ctx) {
    ctx.waitUntil(runSweeps(env, [sweepExpiredTokens, sweepIdempotencyKeys]));
  },
} satisfies ExportedHandler<Env>;
