import type { Hono, MiddlewareHandler } from "hono";
import { etag } from "hono/etag";
import type { AppEnv } from "../context";
import type { Router } from "./router";

/** Request headers browsers may send cross-origin, and response headers their scripts may read. */
export const CORS_REQUEST_HEADERS = ["Authorization", "Content-Type", "Idempotency-Key", "X-Request-Id", "X-D1-Bookmark"];
export const CORS_RESPONSE_HEADERS = [
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

/**
 * Every API response is readable cross-origin (a 429 or an error too: a browser script must see why it
 * was refused) and, unless it says otherwise, private and revalidated: per-caller data never sits in a
 * shared cache.
 */
export const apiResponseHeaders: MiddlewareHandler<AppEnv> = async (c, next) => {
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

const withEtag = etag({ weak: true, retainedHeaders: NOT_MODIFIED_HEADERS });

/**
 * Successful GETs of resources and lists carry a weak ETag (a hash of the body); a request whose
 * If-None-Match names it gets 304 with no body. In-process calls (pages, the assistant) skip it.
 */
export const conditionalGet: MiddlewareHandler<AppEnv> = async (c, next) => {
  if (c.get("dispatched") || (c.req.method !== "GET" && c.req.method !== "HEAD")) return next();
  return withEtag(c, next);
};

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
export function addPatchAliases(router: Router): void {
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
export function allowedMethods(app: Hono<AppEnv>, path: string): string[] {
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
