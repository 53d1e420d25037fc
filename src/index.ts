import { apiTokenRoutes } from "./identity/api-token-routes";
import { authRoutes } from "./identity/auth-routes";
import { userRoutes } from "./identity/users-routes";
import { accountRoutes } from "./packages/account/routes";
import { hrmRoutes } from "./packages/hrm/routes";
import { salesRoutes } from "./packages/sales/routes";
import { tasklyRoutes } from "./packages/taskly/routes";
import { createApp } from "./platform/app";
import type { Env } from "./platform/context";
import { sweepIdempotencyKeys } from "./platform/idempotency";
import { runSweeps, sweepExpiredTokens } from "./platform/sweeps";
import { packageRoutes } from "./workspace/package-routes";
import { subscriptionRoutes } from "./workspace/subscription-routes";

export { RateLimiter } from "./platform/rate-limit/durable-object";

/** The composed application (tests read its route table). */
export const app = createApp([
  authRoutes,
  userRoutes,
  apiTokenRoutes,
  subscriptionRoutes,
  packageRoutes,
  ...hrmRoutes,
  ...salesRoutes,
  ...accountRoutes,
  ...tasklyRoutes,
]);

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
