import { OpenAPIHono } from "@hono/zod-openapi";
import { type Context, Hono } from "hono";
import { requestId } from "hono/request-id";
import { authenticate } from "./auth/middleware";
import { jsonBody } from "./body";
import type { AppEnv } from "./context";
import { renderDocs } from "./docs";
import { ApiError, errorResponse, handleError } from "./errors";
import { durableLimiter, type Limiter } from "./rate-limit/limiter";
import { rateLimit } from "./rate-limit/middleware";
import { validationHook } from "./validation";

export type Router = OpenAPIHono<AppEnv>;

/** A router for one group of routes; zod failures go through the one validation hook. */
export function newRouter(): Router {
  return new OpenAPIHono<AppEnv>({ defaultHook: validationHook });
}

const API_DESCRIPTION =
  "Multi-tenant business management API: contacts, customers, employees, leads, deals, projects, tasks, invoices and payments. " +
  "Authenticate with `Authorization: Bearer <token>` (a session token from POST /auth/token or an API token from /api-tokens).";

/**
 * The whole HTTP surface: request ids and errors for everything, and under /api/v1 the shared
 * request pipeline (authenticate → body) followed by the routers the composition root hands in.
 */
export type AppOptions = {
  /** The rate limiter for a request; tests may pass another implementation of the interface. */
  limiter?: (c: Context<AppEnv>) => Limiter;
  /** Runs after a successful request that recorded events (the webhooks package dispatches them). */
  onEventsRecorded?: (c: Context<AppEnv>, workspaceId: number) => void;
  /** Pages served outside the API (HTML demos), mounted at the root. */
  pages?: Hono<AppEnv>;
};

/**
 * The whole HTTP surface: request ids and errors for everything, and under /api/v1 the shared
 * request pipeline (authenticate → rate limit → body → idempotency) before the routers handed in.
 */
export function createApp(routers: Router[], options: AppOptions = {}): Hono<AppEnv> {
  const api = newRouter();
  api.onError(handleError);

  // Registered before the pipeline, so they touch neither D1 nor the rate limiter.
  api.get("/health", (c) => c.json({ status: "ok" }));
  const documentConfig = (origin: string) => ({
    openapi: "3.1.0",
    info: { title: "Business Platform API", version: "1.0.0", description: API_DESCRIPTION },
    servers: [{ url: `${origin}/api/v1` }],
  });
  api.get("/openapi.json", (c) => c.json(api.getOpenAPI31Document(documentConfig(new URL(c.req.url).origin))));
  api.get("/docs", (c) => c.html(renderDocs(api.getOpenAPI31Document(documentConfig(new URL(c.req.url).origin)))));

  api.use("*", authenticate);
  api.use("*", rateLimit(options.limiter ?? ((c) => durableLimiter(c.env.RATE_LIMITER))));
  api.use("*", jsonBody);
  api.use("*", async (c, next) => {
    await next();
    const principal = c.get("principal");
    if (c.get("eventsRecorded") && principal && c.res.status < 500) options.onEventsRecorded?.(c, principal.workspace.id);
  });
  for (const router of routers) api.route("/", router);

  api.openAPIRegistry.registerComponent("securitySchemes", "bearerAuth", {
    type: "http",
    scheme: "bearer",
    description: "A session token (bps_…) or an API token (bpk_…)",
  });

  const app = new Hono<AppEnv>();
  app.use("*", requestId());
  app.route("/api/v1", api);
  if (options.pages) app.route("/", options.pages);
  app.notFound((c) => errorResponse(c, new ApiError("not_found", `No route for ${c.req.method} ${c.req.path}`)));
  app.onError(handleError);
  return app;
}
