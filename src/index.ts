// The composition root: the packages this worker is built from, and the handlers it exports.
import dashboard from "./dashboard/manifest";
import identity from "./identity/manifest";
import ops from "./ops/manifest";
import account from "./packages/account/manifest";
import accountingPro from "./packages/accounting-pro/manifest";
import analytics from "./packages/analytics/manifest";
import assistant from "./packages/assistant/manifest";
import attendance from "./packages/attendance/manifest";
import chatbot from "./packages/chatbot/manifest";
import expenses from "./packages/expenses/manifest";
import helpdesk from "./packages/helpdesk/manifest";
import hrm from "./packages/hrm/manifest";
import hrmPro from "./packages/hrm-pro/manifest";
import leave from "./packages/leave/manifest";
import products from "./packages/products/manifest";
import projectManagementPro from "./packages/project-management-pro/manifest";
import quotes from "./packages/quotes/manifest";
import recruitment from "./packages/recruitment/manifest";
import sales from "./packages/sales/manifest";
import salesPro from "./packages/sales-pro/manifest";
import taskly from "./packages/taskly/manifest";
import timesheets from "./packages/timesheets/manifest";
import type { Env } from "./platform/context";
import { createPlatform } from "./platform/create";
import search from "./search/manifest";
import sso from "./sso/manifest";
import web from "./web/manifest";
import webhooks from "./webhooks/manifest";
import workspace from "./workspace/manifest";

export { RateLimiter } from "./platform/rate-limit/durable-object";

/** Every package of this build: adding one is one folder and one line here. */
export const packages = [
  identity,
  workspace,
  webhooks,
  sso,
  dashboard,
  web,
  ops,
  search,
  hrm,
  sales,
  account,
  taskly,
  recruitment,
  timesheets,
  products,
  quotes,
  expenses,
  leave,
  attendance,
  helpdesk,
  analytics,
  assistant,
  chatbot,
  hrmPro,
  salesPro,
  accountingPro,
  projectManagementPro,
];

/** The worker built from them (tests reach its registry and route table through it). */
export const platform = createPlatform(packages);

export default {
  fetch: platform.app.fetch,
  queue: (batch, env) => platform.queue(batch, env),
  scheduled: (controller, env, ctx) => ctx.waitUntil(platform.scheduled(env, controller.scheduledTime)),
  email: (message, env, ctx) => platform.email(message, env, ctx),
} satisfies ExportedHandler<Env, unknown>;
