import { type Context, Hono, type MiddlewareHandler } from "hono";
import { cors } from "hono/cors";
import { requestId } from "hono/request-id";
import { authenticate, requirePackage } from "./auth/middleware";
import { jsonBody } from "./body";
import { readConfig } from "./config";
import type { AppEnv, Env } from "./context";
import { ApiError, errorResponse, handleError } from "./errors";
import { addPatchAliases, allowedMethods, apiResponseHeaders, CORS_REQUEST_HEADERS, CORS_RESPONSE_HEADERS, conditionalGet } from "./http/conventions";
import { mountPublicRoutes } from "./http/health";
import { newRouter, type Router } from "./http/router";
import { sweepIdempotencyKeys } from "./idempotency";
import { IsolateState } from "./isolate";
import { logError, logWarning } from "./log";
import { mailConsumer, sweepLostMail } from "./mail/consumer";
import { documentGating, registerCommonComponents, registerWebhookDocs } from "./openapi";
import { type PackageManifest, PackageRegistry } from "./packages";
import { durableLimiter, type Limiter } from "./rate-limit/limiter";
import { rateLimit } from "./rate-limit/middleware";
import { resealSweep } from "./reseal";
import { resourceRoutes } from "./resource/routes";
import type { Platform } from "./services";
import { runSweeps, sweepExpiredTokens } from "./sweeps";
import { d1Session } from "./tenancy";
import { notFoundPage } from "./web/page";

export type PlatformOptions = {
  /** The rate limiter for a request; tests may pass another implementation of the interface. */
  limiter?: (c: Context<AppEnv>) => Limiter;
};

/** The worker built from its packages: what the composition root exports, and what tests drive. */
export type Worker = Platform & {
  app: Hono<AppEnv>;
  queue(batch: MessageBatch<unknown>, env: Env): Promise<void>;
  scheduled(env: Env, now?: number): Promise<void>;
  /** Inbound e-mail (Cloudflare Email Routing): the first package mailbox that takes the recipient gets it. */
  email(message: ForwardableEmailMessage, env: Env, ctx: ExecutionContext): Promise<void>;
};

/**
 * A misconfigured worker (a missing secret, no PUBLIC_BASE_URL in production) serves nothing but
 * `/health` and an honest 503 from `/health/ready`: it never falls back to a built-in key.
 */
function requireConfiguration(isolate: IsolateState): MiddlewareHandler<AppEnv> {
  const logged = isolate.get("config.logged", () => new Set<string>());
  return async (c, next) => {
    const result = readConfig(c.env);
    if ("problems" in result) {
      const key = result.problems.join("; ");
      if (!logged.has(key)) {
        logged.add(key);
        console.error(JSON.stringify({ level: "error", msg: "configuration error: the worker refuses requests until it is fixed", problems: result.problems }));
      }
      const path = c.req.path;
      if (path !== "/api/v1/health" && path !== "/api/v1/health/ready") {
        return errorResponse(c, new ApiError("service_unavailable", "The service is not configured correctly; its operator has been told in the log."));
      }
    }
    return next();
  };
}

/**
 * Every router of a package: its own first, so a literal path (/payments/processor) wins over a resource's
 * /{id} route of the same shape, then its resources' generated routes.
 */
export function routersOf(manifest: PackageManifest): Router[] {
  return [...(manifest.routers ?? []), ...(manifest.resources ?? []).map((definition) => resourceRoutes(definition, definition.routes))];
}

/**
 * The whole worker from its packages: the registry (checked when the worker starts), the HTTP surface —
 * request ids and errors for everything, and under /api/v1 the shared pipeline (CORS → authenticate →
 * rate limit → body → D1 session) before each package's routes, each gated by its package — and the
 * queue consumers and cron sweeps the packages declare. The platform object is set on every request's
 * context (platformOf), so nothing reaches the registry through module state.
 */
export function createPlatform(manifests: PackageManifest[], options: PlatformOptions = {}): Worker {
  const registry = new PackageRegistry(manifests);
  const isolate = new IsolateState();
  const app = new Hono<AppEnv>();
  const platform: Platform = { registry, isolate, fetch: async (request, env, ctx) => app.fetch(request, env, ctx) };
  const api = apiRouter(platform, manifests, options);

  app.use("*", async (c, next) => {
    c.set("platform", platform);
    await next();
  });
  app.use("*", requestId());
  app.use("*", requireConfiguration(isolate));
  // Pages too: a public page may record an event (an invoice's first view).
  app.use("*", afterEventsRecorded(platform, manifests));
  app.route("/api/v1", api);
  for (const manifest of manifests) for (const routes of [...(manifest.operatorRoutes ?? []), ...(manifest.pages ?? [])]) app.route("/", routes);
  app.notFound((c) => {
    const allow = allowedMethods(app, c.req.path);
    if (allow.length > 0) {
      const message = `${c.req.method} is not allowed on ${c.req.path}; use ${allow.join(", ")}`;
      return errorResponse(c, new ApiError("method_not_allowed", message, { headers: { Allow: allow.join(", ") } }));
    }
    if (!c.req.path.startsWith("/api/")) return notFoundPage(c);
    return errorResponse(c, new ApiError("not_found", `No route for ${c.req.method} ${c.req.path}`));
  });
  app.onError(handleError);
  return { ...platform, app, ...backgroundHandlers(platform, manifests) };
}

/** /api/v1: the shared pipeline, then every package's routers (gated by its package), then the document's parts. */
function apiRouter(platform: Platform, manifests: PackageManifest[], options: PlatformOptions): Router {
  const { registry, isolate } = platform;
  const api = newRouter();
  api.onError(handleError);
  // Browsers may call the API from any origin with a bearer token, never with cookies; preflights
  // are answered here, before authentication and rate limiting.
  api.use(
    "*",
    cors({
      origin: "*",
      allowMethods: ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE"],
      allowHeaders: CORS_REQUEST_HEADERS,
      exposeHeaders: CORS_RESPONSE_HEADERS,
      maxAge: 86400,
    }),
  );
  api.use("*", apiResponseHeaders);
  // Registered before the pipeline, so they touch neither authentication nor the rate limiter.
  mountPublicRoutes(api, registry);
  for (const manifest of manifests) for (const router of manifest.staticRouters ?? []) api.route("/", router);

  api.use("*", authenticate);
  const collectors = new Map(manifests.flatMap((manifest) => (manifest.collectors ?? []).map(({ path, perMinute }) => [`/api/v1${path}`, perMinute] as const)));
  const inbound = manifests.flatMap((manifest) => (manifest.inbound ?? []).map((prefix) => `/api/v1${prefix}`));
  api.use("*", rateLimit(options.limiter ?? ((c) => durableLimiter(c.env.RATE_LIMITER, isolate)), collectors, inbound));
  // File uploads (a receipt's bytes) are read by their route, counted like any request.
  const uploads = manifests.flatMap((manifest) => manifest.uploads ?? []);
  api.use("*", jsonBody(new Set(collectors.keys()), inbound, uploads));
  api.use("*", d1Session);
  api.use("*", conditionalGet);
  for (const manifest of manifests) {
    for (const router of routersOf(manifest)) {
      addPatchAliases(router);
      if (manifest.tier !== "core") {
        documentGating(router, manifest.name);
        // Gating from the manifest: each route of a package answers 403 package_disabled while it is off.
        for (const route of router.routes) if (route.method !== "ALL") api.on(route.method, route.path, requirePackage(manifest.name));
      }
      api.route("/", router);
    }
  }
  registerCommonComponents(api);
  registerWebhookDocs(api, registry.events());
  api.openAPIRegistry.registerComponent("securitySchemes", "bearerAuth", {
    type: "http",
    scheme: "bearer",
    description: "A session token (bps_…) from POST /auth/token, or an API token (bpk_…) from Settings → API",
  });
  return api;
}

/** After a request that recorded outbox events has answered, the packages' hooks run (webhook dispatch). */
function afterEventsRecorded(platform: Platform, manifests: PackageManifest[]): MiddlewareHandler<AppEnv> {
  const hooks = manifests.flatMap((manifest) => (manifest.onEventsRecorded ? [manifest.onEventsRecorded] : []));
  return async (c, next) => {
    await next();
    const principal = c.get("principal");
    const workspace = c.get("eventsWorkspace") ?? (principal ? { id: principal.workspace.id, shard: principal.shard } : null);
    if (!c.get("eventsRecorded") || !workspace || c.res.status >= 500) return;
    for (const hook of hooks) {
      // Started on the next turn of the event loop: the response is on its way before the hook's first query.
      const later = new Promise((resolve) => setTimeout(resolve, 0)).then(() => hook(c.env, workspace, platform));
      c.executionCtx.waitUntil(
        later.catch((error: unknown) => logError("after-events hook failed; the sweep will retry", error, { workspace_id: workspace.id })),
      );
    }
  };
}

/** The queue consumers and the cron sweeps the packages declare. */
function backgroundHandlers(platform: Platform, manifests: PackageManifest[]): Pick<Worker, "queue" | "scheduled" | "email"> {
  const mailboxes = manifests.flatMap((manifest) => manifest.mailboxes ?? []);
  const eventHooks = manifests.flatMap((manifest) => (manifest.onEventsRecorded ? [manifest.onEventsRecorded] : []));
  const mailers = new Map(manifests.flatMap((manifest) => Object.entries(manifest.mailers ?? {})));
  // The mail outbox is the platform's: the packages bring only their messages' renderers.
  const consumers = new Map([["mail", mailConsumer(mailers)], ...manifests.flatMap((manifest) => Object.entries(manifest.consumers ?? {}))]);
  const sealed = manifests.flatMap((manifest) => manifest.sealedColumns ?? []);
  const sweeps = [
    sweepExpiredTokens,
    sweepIdempotencyKeys,
    sweepLostMail,
    ...manifests.flatMap((manifest) => manifest.sweeps ?? []),
    ...(sealed.length > 0 ? [resealSweep(sealed)] : []),
  ];
  return {
    async queue(batch, env) {
      // A dead-letter queue without a consumer of its own goes to its queue's.
      const consumer = consumers.get(batch.queue) ?? consumers.get(batch.queue.replace(/-dlq$/, ""));
      if (!consumer) throw new Error(`no consumer for queue ${batch.queue}`);
      await consumer(batch, env, platform);
    },
    scheduled: (env, now) => runSweeps(env, sweeps, platform, now),
    async email(message, env, ctx) {
      const mailbox = mailboxes.find((candidate) => candidate.takes(message.to, env));
      // Refused with a reason the sender's server reports back (Email Routing bounces it); nothing is kept.
      if (!mailbox) {
        logWarning("email: rejected, no mailbox takes the address", { to: message.to });
        return message.setReject("No mailbox here takes this address");
      }
      const received = await mailbox.receive(message, env, platform);
      const workspace = received?.eventsOf;
      if (!workspace) return;
      for (const hook of eventHooks) {
        ctx.waitUntil(
          hook(env, workspace, platform).catch((error: unknown) =>
            logError("after-events hook failed; the sweep will retry", error, { workspace_id: workspace.id }),
          ),
        );
      }
    },
  };
}
