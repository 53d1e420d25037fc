import { createRoute, z } from "@hono/zod-openapi";
import { readConfig } from "../config";
import { base64Url, utf8 } from "../crypto";
import { docsPage, docsSecurityHeaders, newNonce } from "../docs";
import { ErrorEnvelope, openApiDocument } from "../openapi";
import type { PackageRegistry } from "../packages";
import { reachable } from "../tenancy";
import { matchesTag } from "./conventions";
import { apiBaseUrl } from "./origin";
import type { Router } from "./router";

/** The probes' tag in the reference. */

const Readiness = z
  .object({ status: z.enum(["ok", "unavailable"]), database: z.enum(["ok", "unavailable"]), configuration: z.literal("invalid").optional() })
  .openapi("Readiness");

export const healthRoute = createRoute({
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

export const readyRoute = createRoute({
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
/** The API reference, its assets and the tracker: the same for everyone, revalidated by ETag. */
const PUBLIC_CACHE = "public, max-age=3600, stale-while-revalidate=86400";

export const openApiRoute = createRoute({
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

/** base64url of the SHA-1 of a text: a validator, not a security measure. */
async function digest(text: string): Promise<string> {
  return base64Url(new Uint8Array(await crypto.subtle.digest("SHA-1", utf8(text))));
}

/**
 * The routes served before the pipeline (no authentication, no rate limit): the probes, the OpenAPI
 * document (generated from `api`, the router everything else is mounted on) and the reference page.
 */
export function mountPublicRoutes(api: Router, registry: PackageRegistry): void {
  api.openapi(healthRoute, (c) => {
    // Local scripts start a server with an INSTANCE_ID and check that the one answering is theirs.
    if (c.env.INSTANCE_ID) c.header("X-Instance-Id", c.env.INSTANCE_ID);
    return c.json({ status: "ok" as const }, 200);
  });
  api.openapi(readyRoute, async (c) => {
    const configured = !("problems" in readConfig(c.env));
    // One trivial query on the directory (the benchmark's ceiling: one D1 round trip); on request, on
    // every shard too, in parallel: one unreachable database makes the worker unready.
    const database = await reachable(c.env, c.req.valid("query").shards === "all");
    const ready = configured && database;
    const body = {
      status: ready ? ("ok" as const) : ("unavailable" as const),
      database: database ? ("ok" as const) : ("unavailable" as const),
      ...(configured ? {} : { configuration: "invalid" as const }),
    };
    return ready ? c.json(body, 200) : c.json(body, 503);
  });
  api.openapi(openApiRoute, async (c) => {
    const text = JSON.stringify(openApiDocument(api, apiBaseUrl(c), registry));
    const tag = `"${await digest(text)}"`;
    const headers = { ETag: tag, "Cache-Control": PUBLIC_CACHE, "Content-Type": "application/json; charset=UTF-8" };
    if (matchesTag(c.req.header("if-none-match"), tag)) return c.body(null, 304, headers);
    return c.body(text, 200, headers) as never;
  });
  api.get("/docs", (c) => {
    const nonce = newNonce();
    return c.html(docsPage(nonce), 200, docsSecurityHeaders(nonce));
  });
}
