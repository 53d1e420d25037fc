import { createRoute, OpenAPIHono, z } from "@hono/zod-openapi";
import { type Context, Hono, type MiddlewareHandler } from "hono";
import { cors } from "hono/cors";
import { etag } from "hono/etag";
import { requestId } from "hono/request-id";
import { authenticate, requirePackage } from "./auth/middleware";
import { jsonBody } from "./body";
import { configOf, readConfig } from "./config";
import type { AppEnv, Env } from "./context";
import { base64Url, utf8 } from "./crypto";
import { d1Session } from "./d1-session";
import { setDispatchTarget } from "./dispatch";
import { docsPage, docsSecurityHeaders, newNonce } from "./docs";
import { ApiError, errorResponse, handleError } from "./errors";
import { sweepIdempotencyKeys } from "./idempotency";
import { logError } from "./log";
import { describeTag, documentGating, ErrorEnvelope, openApiDocument, registerCommonComponents, registerWebhookDocs } from "./openapi";
import { type PackageManifest, PackageRegistry, setRegistry } from "./packages";
import { durableLimiter, type Limiter } from "./rate-limit/limiter";
import { rateLimit } from "./rate-limit/middleware";
import { resealSweep } from "./secrets";
import { shardMoveRoutes } from "./shard-move";
import { allShards } from "./shards";
import { runSweeps, sweepExpiredTokens } from "./sweeps";
import { validationHook } from "./validation";

export type Router = OpenAPIHono<AppEnv>;

/** A router for one group of routes; zod failures go through the one validation hook. */
export function newRouter(): Router {
  return new OpenAPIHono<AppEnv>({ defaultHook: validationHook });
}

export type AppOptions = {
  /** The rate limiter for a request; tests may pass another implementation of the interface. */
  limiter?: (c: Context<AppEnv>) => Limiter;
};

/** Request headers browsers may send cross-origin, and response headers their scripts may read. */
const CORS_REQUEST_HEADERS = ["Authorization", "Content-Type", "Idempotency-Key", "X-Request-Id", "X-D1-Bookmark"];
const CORS_RESPONSE_HEADERS = [
  "X-Request-Id",
  "X-RateLimit-Limit",
  "X-RateLimit-Remaining",
  "X-RateLimit-Reset",
  "RateLimit",
  "RateLimit-Policy",
  "Retry-After",
  "ETag",
  "Link",
  "Idempotent-Replayed",
  "X-D1-Bookmark",
  "WWW-Authenticate",
];

const loggedProblems = new Set<string>();

describeTag("Health", "Liveness and readiness probes for operators and load balancers; never rate-limited.");

const Readiness = z
  .object({ status: z.enum(["ok", "unavailable"]), database: z.enum(["ok", "unavailable"]), configuration: z.literal("invalid").optional() })
  .openapi("Readiness");

const healthRoute = createRoute({
  method: "get",
  path: "/health",
  operationId: "getHealth",
  tags: ["Health"],
  summary: "Liveness: the worker answers (no database access)",
  description: 'Answers {"status": "ok"} without touching a database: for load balancers and uptime checks. Never rate-limited, no credential needed.',
  security: [],
  request: { query: z.strictObject({}) },
  responses: {
    200: { description: "Alive", content: { "application/json": { schema: z.object({ status: z.literal("ok") }).openapi("Health") } } },
    400: { description: "`validation_error`: an unknown query parameter", content: { "application/json": { schema: ErrorEnvelope } } },
  },
});

const readyRoute = createRoute({
  method: "get",
  path: "/health/ready",
  operationId: "getReadiness",
  tags: ["Health"],
  summary: "Readiness: one trivial D1 query, and the configuration is complete",
  description: "The query runs on the directory database; `?shards=all` also runs it on every shard, in parallel.",
  security: [],
  request: {
    query: z.strictObject({
      shards: z.enum(["all"]).optional().openapi({ description: "`all`: check every shard too (one query each), not only the directory" }),
    }),
  },
  responses: {
    400: { description: "`validation_error`: an unknown query parameter", content: { "application/json": { schema: ErrorEnvelope } } },
    200: { description: "Ready", content: { "application/json": { schema: Readiness } } },
    503: {
      description: "Not ready: a database (the directory or a shard) is unreachable or the worker is misconfigured",
      content: { "application/json": { schema: Readiness } },
    },
  },
});

/**
 * A misconfigured worker (a missing secret, no PUBLIC_BASE_URL in production) serves nothing but
 * `/health` and an honest 503 from `/health/ready`: it never falls back to a built-in key.
 */
const requireConfiguration: MiddlewareHandler<AppEnv> = async (c, next) => {
  const result = readConfig(c.env);
  if ("problems" in result) {
    const key = result.problems.join("; ");
    if (!loggedProblems.has(key)) {
      loggedProblems.add(key);
      console.error(JSON.stringify({ level: "error", msg: "configuration error: the worker refuses requests until it is fixed", problems: result.problems }));
    }
    const path = c.req.path;
    if (path !== "/api/v1/health" && path !== "/api/v1/health/ready") {
      return errorResponse(c, new ApiError("service_unavailable", "The service is not configured correctly; its operator has been told in the log."));
    }
  }
  return next();
};

/** The API reference, its assets and the tracker: the same for everyone, revalidated by ETag. */
const PUBLIC_CACHE = "public, max-age=3600, stale-while-revalidate=86400";

const openApiRoute = createRoute({
  method: "get",
  path: "/openapi.json",
  operationId: "getOpenApiDocument",
  tags: ["Health"],
  summary: "This API's OpenAPI 3.1 document",
  description:
    "Generated from the same zod schemas that validate requests: every operation with its parameters, bodies, examples, the errors it can return and its headers, plus the webhook payloads. Publicly cacheable; revalidate with If-None-Match.",
  security: [],
  request: { query: z.strictObject({}) },
  responses: {
    200: { description: "The document", content: { "application/json": { schema: z.object({}).passthrough().openapi("OpenApiDocument") } } },
    304: { description: "Not modified: the ETag sent in If-None-Match is current" },
    400: { description: "`validation_error`: an unknown query parameter", content: { "application/json": { schema: ErrorEnvelope } } },
  },
});

/**
 * Every API response is readable cross-origin (a 429 or an error too: a browser script must see why it
 * was refused) and, unless it says otherwise, private and revalidated: per-caller data never sits in a
 * shared cache.
 */
const apiResponseHeaders: MiddlewareHandler<AppEnv> = async (c, next) => {
  await next();
  const headers = c.res.headers;
  if (!headers.has("Access-Control-Allow-Origin")) {
    headers.set("Access-Control-Allow-Origin", "*");
    headers.set("Access-Control-Expose-Headers", CORS_RESPONSE_HEADERS.join(","));
  }
  if (!headers.has("Cache-Control")) headers.set("Cache-Control", "private, no-cache");
};

/** Headers a 304 keeps from the 200 it stands for (RFC 9110 §15.4.5, plus ours). */
const NOT_MODIFIED_HEADERS = [
  "cache-control",
  "content-location",
  "date",
  "etag",
  "expires",
  "vary",
  "x-request-id",
  "access-control-allow-origin",
  "access-control-expose-headers",
  "x-d1-bookmark",
];

/**
 * Successful GETs of resources and lists carry a weak ETag (a hash of the body); a request whose
 * If-None-Match names it gets 304 with no body. In-process calls (pages, the assistant) skip it.
 */
const withEtag = etag({ weak: true, retainedHeaders: NOT_MODIFIED_HEADERS });
const conditionalGet: MiddlewareHandler<AppEnv> = async (c, next) => {
  if (c.get("dispatched") || (c.req.method !== "GET" && c.req.method !== "HEAD")) return next();
  return withEtag(c, next);
};

/** base64url of the SHA-1 of a text: a validator, not a security measure. */
async function digest(text: string): Promise<string> {
  return base64Url(new Uint8Array(await crypto.subtle.digest("SHA-1", utf8(text))));
}

/** Whether an If-None-Match header names the tag (weak comparison). */
export function matchesTag(ifNoneMatch: string | undefined, tag: string): boolean {
  if (!ifNoneMatch) return false;
  const bare = tag.replace(/^W\//, "");
  return ifNoneMatch.trim() === "*" || ifNoneMatch.split(",").some((candidate) => candidate.trim().replace(/^W\//, "") === bare);
}

/**
 * PATCH is an alias of PUT everywhere (PUT is already a partial update): every PUT route a router
 * declares without a PATCH twin gets one — the same middleware and handler, documented as its own
 * operation — so no package has to remember it.
 */
function addPatchAliases(router: Router): void {
  const declared = router.openAPIRegistry.definitions.flatMap((definition) => (definition.type === "route" ? [definition.route] : []));
  for (const route of declared.filter((candidate) => candidate.method === "put")) {
    if (declared.some((other) => other.method === "patch" && other.path === route.path)) continue;
    const routingPath = route.path.replace(/\/{(.+?)}/g, "/:$1");
    const handlers = router.routes.filter((entry) => entry.method === "PUT" && entry.path === routingPath).map((entry) => entry.handler);
    router.on("PATCH", routingPath, ...(handlers as [MiddlewareHandler<AppEnv>]));
    const operationId = route.operationId?.startsWith("update")
      ? `patch${route.operationId.slice("update".length)}`
      : `patch${(route.operationId ?? "").replace(/^./, (first) => first.toUpperCase())}`;
    router.openAPIRegistry.registerPath({ ...route, method: "patch", operationId, summary: `${route.summary ?? ""} (PATCH: alias of PUT)` });
  }
}

/** The methods a path is served with (for 405 and its Allow header), from the app's route table. */
function allowedMethods(app: Hono<AppEnv>, path: string): string[] {
  const methods = new Set<string>();
  for (const route of app.routes) {
    if (route.method === "ALL") continue;
    const pattern = new RegExp(`^${route.path.replace(/[.+?^${}()|[\]\\]/g, "\\$&").replace(/:\w+/g, "[^/]+")}$`);
    if (pattern.test(path)) methods.add(route.method);
  }
  if (methods.has("GET")) methods.add("HEAD");
  if (methods.size > 0 && path.startsWith("/api/v1/")) methods.add("OPTIONS");
  return [...methods].sort();
}

/** What the composition root gets back: the handlers the worker exports. */
export type Platform = {
  app: Hono<AppEnv>;
  registry: PackageRegistry;
  queue(batch: MessageBatch<unknown>, env: Env): Promise<void>;
  scheduled(env: Env, now?: number): Promise<void>;
};

/**
 * The whole worker from its packages: the registry (checked for unknown names and cycles here, when
 * the worker starts), the HTTP surface — request ids and errors for everything, and under /api/v1 the
 * shared pipeline (CORS → authenticate → rate limit → body) before each package's routes, each gated
 * by its package — and the queue consumers and cron sweeps the packages declare.
 */
export function createPlatform(manifests: PackageManifest[], options: AppOptions = {}): Platform {
  const packages = new PackageRegistry(manifests);
  setRegistry(packages);
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
  api.openapi(healthRoute, (c) => {
    // Local scripts start a server with an INSTANCE_ID and check that the one answering is theirs.
    if (c.env.INSTANCE_ID) c.header("X-Instance-Id", c.env.INSTANCE_ID);
    return c.json({ status: "ok" as const }, 200);
  });
  api.openapi(readyRoute, async (c) => {
    const configured = !("problems" in readConfig(c.env));
    // One trivial query on the directory (the benchmark's ceiling: one D1 round trip); on request, on
    // every shard too, in parallel: one unreachable database makes the worker unready.
    const databases = c.req.valid("query").shards === "all" ? [...new Set([c.env.DB, ...allShards(c.env).map((shard) => shard.db)])] : [c.env.DB];
    const reachable = await Promise.all(
      databases.map((db) =>
        db
          .prepare("SELECT 1 AS ok")
          .first<{ ok: number }>()
          .then((row) => row?.ok === 1)
          .catch(() => false),
      ),
    );
    const database = reachable.every(Boolean);
    const ready = configured && database;
    const body = {
      status: ready ? ("ok" as const) : ("unavailable" as const),
      database: database ? ("ok" as const) : ("unavailable" as const),
      ...(configured ? {} : { configuration: "invalid" as const }),
    };
    return ready ? c.json(body, 200) : c.json(body, 503);
  });
  api.openapi(openApiRoute, async (c) => {
    const text = JSON.stringify(openApiDocument(api, apiBaseUrl(c), manifests, packages.events()));
    const tag = `"${await digest(text)}"`;
    const headers = { ETag: tag, "Cache-Control": PUBLIC_CACHE, "Content-Type": "application/json; charset=UTF-8" };
    if (matchesTag(c.req.header("if-none-match"), tag)) return c.body(null, 304, headers);
    return c.body(text, 200, headers) as never;
  });
  api.get("/docs", (c) => {
    const nonce = newNonce();
    return c.html(docsPage(nonce), 200, docsSecurityHeaders(nonce));
  });

  api.use("*", authenticate);
  const collectors = new Map(manifests.flatMap((manifest) => (manifest.collectors ?? []).map(({ path, perMinute }) => [`/api/v1${path}`, perMinute] as const)));
  const inbound = manifests.flatMap((manifest) => (manifest.inbound ?? []).map((prefix) => `/api/v1${prefix}`));
  api.use("*", rateLimit(options.limiter ?? ((c) => durableLimiter(c.env.RATE_LIMITER)), collectors, inbound));
  api.use("*", jsonBody(new Set(collectors.keys()), inbound));
  api.use("*", d1Session);
  api.use("*", conditionalGet);
  const afterEvents = manifests.flatMap((manifest) => (manifest.onEventsRecorded ? [manifest.onEventsRecorded] : []));
  api.use("*", async (c, next) => {
    await next();
    const principal = c.get("principal");
    if (c.get("eventsRecorded") && principal && c.res.status < 500) {
      for (const hook of afterEvents) {
        const workspace = { id: principal.workspace.id, shard: principal.shard };
        // Started on the next turn of the event loop: the response is on its way before the hook's first query.
        const later = new Promise((resolve) => setTimeout(resolve, 0)).then(() => hook(c.env, workspace));
        c.executionCtx.waitUntil(
          later.catch((error: unknown) => logError("after-events hook failed; the sweep will retry", error, { workspace_id: workspace.id })),
        );
      }
    }
  });
  for (const manifest of manifests) {
    for (const router of manifest.routers) {
      addPatchAliases(router);
      if (manifest.tier !== "core") documentGating(router, manifest.name);
      // Gating from the manifest: each route of a package answers 403 package_disabled while it is off.
      if (manifest.tier !== "core")
        for (const route of router.routes) if (route.method !== "ALL") api.on(route.method, route.path, requirePackage(manifest.name));
      api.route("/", router);
    }
  }

  registerCommonComponents(api);
  registerWebhookDocs(api, packages.events());
  api.openAPIRegistry.registerComponent("securitySchemes", "bearerAuth", {
    type: "http",
    scheme: "bearer",
    description: "A session token (bps_…) from POST /auth/token, or an API token (bpk_…) from Settings → API",
  });

  const app = new Hono<AppEnv>();
  app.use("*", requestId());
  app.use("*", requireConfiguration);
  app.route("/api/v1", api);
  app.route("/ops", shardMoveRoutes);
  for (const manifest of manifests) for (const pages of manifest.pages ?? []) app.route("/", pages);
  app.notFound((c) => {
    const allow = allowedMethods(app, c.req.path);
    if (allow.length > 0) {
      return errorResponse(
        c,
        new ApiError("method_not_allowed", `${c.req.method} is not allowed on ${c.req.path}; use ${allow.join(", ")}`, {
          headers: { Allow: allow.join(", ") },
        }),
      );
    }
    return errorResponse(c, new ApiError("not_found", `No route for ${c.req.method} ${c.req.path}`));
  });
  app.onError(handleError);
  setDispatchTarget(app);

  const consumers = new Map(manifests.flatMap((manifest) => Object.entries(manifest.consumers ?? {})));
  const sealed = manifests.flatMap((manifest) => manifest.sealedColumns ?? []);
  const sweeps = [
    sweepExpiredTokens,
    sweepIdempotencyKeys,
    ...manifests.flatMap((manifest) => manifest.sweeps ?? []),
    ...(sealed.length > 0 ? [resealSweep(sealed)] : []),
  ];
  return {
    app,
    registry: packages,
    async queue(batch, env) {
      // A dead-letter queue without a consumer of its own goes to its queue's.
      const consumer = consumers.get(batch.queue) ?? consumers.get(batch.queue.replace(/-dlq$/, ""));
      if (!consumer) throw new Error(`no consumer for queue ${batch.queue}`);
      await consumer(batch, env);
    },
    scheduled: (env, now) => runSweeps(env, sweeps, now),
  };
}

/** The API's public base URL (`…/api/v1`): PUBLIC_BASE_URL, or the request's origin in local development. */
export function apiBaseUrl(c: Context<AppEnv>): string {
  return `${publicOrigin(c)}/api/v1`;
}

/** PUBLIC_BASE_URL, or the request's own origin in local development (never in production). */
export function publicOrigin(c: Context<AppEnv>): string {
  return configOf(c.env).publicBaseUrl ?? new URL(c.req.url).origin;
}
