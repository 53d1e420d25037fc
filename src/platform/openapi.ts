import { createRoute, type OpenAPIHono, type RouteConfig, z } from "@hono/zod-openapi";
import { authorize } from "./auth/middleware";
import type { Access } from "./auth/permissions";
import type { AppEnv } from "./context";
import { ERROR_STATUS, type ErrorCode } from "./errors";
import { idempotency } from "./idempotency";
import type { EventDeclaration, PackageManifest, PackageRegistry } from "./packages";

export const ErrorEnvelope = z
  .object({
    success: z.literal(false),
    error: z.object({
      code: z.enum(Object.keys(ERROR_STATUS) as [ErrorCode, ...ErrorCode[]]),
      message: z.string(),
      details: z
        .array(
          z
            .object({
              path: z.string().openapi({ description: 'The field, dotted (operations.2.data.email); "" when the problem is the request as a whole' }),
              message: z.string(),
              index: z.number().int().optional().openapi({ description: "In a batch: the operation" }),
            })
            .catchall(z.unknown())
            .openapi("ErrorDetail", {
              description:
                "One problem. Some codes add facts: invalid_transition `from`, `to`, `allowed` (where it can go from here) and for actions `allowed_from`; dependency_disabled `missing`; package_required `required_by`; forbidden `missing_scope` and `accepted_scopes`, or `role` and `required_role`; package_disabled `package`.",
            }),
        )
        .optional()
        .openapi({ description: "Always a list of {path, message, …facts}" }),
      request_id: z.string(),
    }),
  })
  .openapi("Error");

/** What each error code means, for the response descriptions. */
const CODE_MEANING: Record<ErrorCode, string> = {
  validation_error: "a field or parameter is invalid (details name each)",
  invalid_json: "the body is not valid JSON",
  invalid_cursor: "the cursor was edited or belongs to another list",
  unauthorized: "missing, malformed, unknown, expired or revoked token",
  forbidden: "the role or token scopes lack the permission (the message names the scope)",
  package_disabled: "the package serving this route is disabled for the workspace",
  not_found: "no such resource in this workspace (also for another workspace's ids)",
  method_not_allowed: "the path exists, the method does not",
  conflict: "a unique field is taken, or the row changed meanwhile",
  invalid_transition: "the state does not allow this move (details[0]: from, to, allowed)",
  idempotency_in_progress: "a request with this Idempotency-Key is still running",
  dependency_disabled: "a package this one depends on is disabled (details[0].missing)",
  package_required: "an enabled package depends on this one (details[0].required_by)",
  payload_too_large: "the body exceeds 1 MiB",
  unsupported_media_type: "the body is not application/json",
  idempotency_key_reused: "this Idempotency-Key was used with another request",
  rate_limited: "over the plan's requests per minute; see Retry-After",
  internal_error: "an unexpected error; quote the request id",
  service_unavailable:
    "the service cannot take this request now (e.g. the workspace is being moved to another database for a few seconds); retry after Retry-After seconds",
};

const ref = (kind: "headers" | "parameters", name: string) => ({ $ref: `#/components/${kind}/${name}` });

/** Headers on every response of a counted route. */
const COMMON_HEADERS = {
  "X-Request-Id": ref("headers", "X-Request-Id"),
  "X-RateLimit-Limit": ref("headers", "X-RateLimit-Limit"),
  "X-RateLimit-Remaining": ref("headers", "X-RateLimit-Remaining"),
  "X-RateLimit-Reset": ref("headers", "X-RateLimit-Reset"),
  RateLimit: ref("headers", "RateLimit"),
  "RateLimit-Policy": ref("headers", "RateLimit-Policy"),
  "X-D1-Bookmark": ref("headers", "X-D1-Bookmark"),
};

/** Registers the shared headers and parameters the routes refer to. */
export function registerCommonComponents(router: OpenAPIHono<AppEnv>): void {
  const registry = router.openAPIRegistry;
  const header = (name: string, description: string, type: "string" | "integer" = "string") =>
    registry.registerComponent("headers", name, { description, schema: { type } });
  header("X-Request-Id", "This request's id (echoes a valid incoming X-Request-Id); quote it to support");
  header("X-RateLimit-Limit", "Requests allowed per 60-second window (the workspace's plan, or 60 per IP without a credential)", "integer");
  header("X-RateLimit-Remaining", "Requests left in the current window", "integer");
  header("X-RateLimit-Reset", "Unix time (seconds) when the current window ends", "integer");
  header(
    "RateLimit-Policy",
    'The IETF form of the limit: `"workspace";q=60;w=60` (quota q per window of w seconds; the policy is `workspace`, `ip` or `collector`)',
  );
  header("RateLimit", 'The IETF form of what is left: `"workspace";r=59;t=42` (r requests remaining, t seconds until the window resets)');
  header("ETag", "A weak validator of the body: send it back as If-None-Match to get 304 Not Modified while it is current");
  header("Cache-Control", "`private, no-cache` on API responses: clients may keep them, but must revalidate (If-None-Match)");
  header("Link", 'On a list page with more rows: `<{this URL with cursor=meta.next_cursor}>; rel="next"` (RFC 8288)');
  header("Retry-After", "Seconds to wait before retrying", "integer");
  header("Idempotent-Replayed", "true when this response is the stored one for the request's Idempotency-Key");
  header(
    "X-D1-Bookmark",
    "The database position this request saw or wrote; send it back as X-D1-Bookmark on a later request to read at least that state (read-your-writes on read replicas)",
  );
  registry.registerComponent("parameters", "IfNoneMatch", {
    name: "If-None-Match",
    in: "header",
    required: false,
    description: "An ETag from an earlier response: 304 Not Modified (no body) while it is current",
    schema: { type: "string" },
  });
  registry.registerComponent("parameters", "IdempotencyKey", {
    name: "Idempotency-Key",
    in: "header",
    required: false,
    description:
      "1–255 printable characters, kept 24 h per workspace and credential: the same key with the same body replays the stored response (Idempotent-Replayed: true); with another body → 422; while the first runs → 409.",
    schema: { type: "string", minLength: 1, maxLength: 255 },
  });
}

/** Error codes by the status they come with, for one route. */
function errorCodes(need: Access, config: RouteInput, extra: readonly ErrorCode[]): Map<number, ErrorCode[]> {
  const codes = new Set<ErrorCode>(["validation_error", "rate_limited", "internal_error", ...extra]);
  if (config.request?.body) for (const code of ["invalid_json", "payload_too_large", "unsupported_media_type"] as const) codes.add(code);
  const query = config.request?.query as z.ZodObject | undefined;
  if (query?.shape && "cursor" in query.shape) codes.add("invalid_cursor");
  if (config.path.includes("{")) codes.add("not_found");
  if (need.kind !== "public") {
    codes.add("unauthorized");
    if (need.kind !== "authenticated" || need.sessionOnly) codes.add("forbidden");
    if (need.kind === "resource") codes.add("package_disabled");
    if (config.method === "post") {
      codes.add("idempotency_in_progress");
      codes.add("idempotency_key_reused");
    }
    // A workspace being moved to another shard refuses writes for a few seconds.
    if (config.method !== "get") codes.add("service_unavailable");
  }
  const byStatus = new Map<number, ErrorCode[]>();
  for (const code of codes) byStatus.set(ERROR_STATUS[code], [...(byStatus.get(ERROR_STATUS[code]) ?? []), code]);
  return byStatus;
}

function errorResponses(byStatus: Map<number, ErrorCode[]>) {
  const responses: Record<number, object> = {};
  for (const [status, codes] of [...byStatus].sort(([a], [b]) => a - b)) {
    const headers = status === 429 || status === 503 ? { ...COMMON_HEADERS, "Retry-After": ref("headers", "Retry-After") } : COMMON_HEADERS;
    responses[status] = {
      description: codes.map((code) => `\`${code}\`: ${CODE_MEANING[code]}`).join("; "),
      headers,
      content: { "application/json": { schema: ErrorEnvelope } },
    };
  }
  return responses;
}

/** Every authenticated route of a switchable package can answer 403 package_disabled: its documentation says so. */
export function documentGating(router: OpenAPIHono<AppEnv>, name: string): void {
  const meaning = `\`package_disabled\`: the ${name} package is disabled for the workspace`;
  for (const definition of router.openAPIRegistry.definitions) {
    // Public routes have no principal to gate (a public route that checks its package says so itself).
    if (definition.type !== "route" || (definition.route.security ?? []).length === 0) continue;
    const responses = definition.route.responses as Record<string, { description: string; content?: unknown; headers?: unknown }>;
    const forbidden = responses[403];
    if (forbidden?.description.includes("package_disabled")) continue;
    responses[403] = forbidden
      ? { ...forbidden, description: `${forbidden.description}; ${meaning}` }
      : { description: meaning, headers: COMMON_HEADERS, content: { "application/json": { schema: ErrorEnvelope } } };
  }
}

/** `{success: true, data}` */
export function envelope<T extends z.ZodType>(data: T) {
  return z.object({ success: z.literal(true), data });
}

export function jsonContent<T extends z.ZodType>(schema: T, description: string) {
  return { description, content: { "application/json": { schema } } };
}

/** A required JSON body; `example` is a request the API accepts (the reference shows it; a test sends it). */
export function jsonBodyOf<T extends z.ZodType>(schema: T, example?: unknown) {
  return { required: true, content: { "application/json": { schema, ...(example !== undefined ? { example } : {}) } } };
}

/** A positive integer id in the path; anything else is answered 404 by the validation hook. */
export function idPathParam(name: string) {
  return z
    .string()
    .regex(/^[1-9][0-9]{0,15}$/)
    .transform(Number)
    .openapi({ param: { name, in: "path" }, type: "integer", example: 7 });
}

export const IdParam = z.object({ id: idPathParam("id") });

type RouteInput = Omit<RouteConfig, "middleware" | "security" | "operationId" | "summary" | "tags"> & {
  /**
   * The component schema the reference shows as the body, when validation has to be looser than the
   * documentation (a batch validates each operation itself): put in place by openApiDocument.
   */
  "x-documented-body"?: string;
  /** Unique across the API; code generators name methods after it (listContacts, sendInvoice…). */
  operationId: string;
  summary: string;
  /** What the operation does, its rules and its refusals, for the reference (every operation has one). */
  description: string;
  tags: string[];
  /** Error codes this route can return beyond those its access, body, path and method imply. */
  errors?: readonly ErrorCode[];
};

/**
 * A route with its access rule: authorization runs before validation (401/403 before 400) and before
 * any idempotent replay; the bearer scheme, the errors this route can return, and the response headers
 * are documented; a route without a query schema refuses any query parameter (a 400, as for bodies).
 */
export function defineRoute<const R extends RouteInput>(need: Access, config: R) {
  const { errors = [], ...routeConfig } = config;
  // Idempotency replays run after authorization: a caller who may not make the request gets no replay.
  const replayable = config.method === "post" && need.kind !== "public";
  const reading = config.method === "get";
  const paged = Boolean((config.request?.query as z.ZodObject | undefined)?.shape && "cursor" in (config.request!.query as z.ZodObject).shape);
  const successHeaders = {
    ...COMMON_HEADERS,
    "Cache-Control": ref("headers", "Cache-Control"),
    ...(replayable ? { "Idempotent-Replayed": ref("headers", "Idempotent-Replayed") } : {}),
    ...(reading ? { ETag: ref("headers", "ETag") } : {}),
    ...(paged ? { Link: ref("headers", "Link") } : {}),
  };
  const success = Object.fromEntries(Object.entries(config.responses).map(([status, response]) => [status, { ...response, headers: successHeaders }]));
  const notModified = reading
    ? {
        304: { description: "Not Modified: the ETag sent in If-None-Match is current (no body)", headers: { ...COMMON_HEADERS, ETag: ref("headers", "ETag") } },
      }
    : {};
  const route = createRoute({
    ...routeConfig,
    middleware: replayable ? ([authorize(need), idempotency] as const) : ([authorize(need)] as const),
    security: need.kind === "public" ? [] : [{ bearerAuth: [] }],
    ...(replayable ? { parameters: [ref("parameters", "IdempotencyKey")] } : {}),
    ...(reading ? { parameters: [ref("parameters", "IfNoneMatch")] } : {}),
    responses: { ...errorResponses(errorCodes(need, config, errors)), ...success, ...notModified } as R["responses"],
  });
  if (!route.request?.query) Object.assign(route, { request: { ...route.request, query: z.strictObject({}) } });
  return route;
}

/** Tags of routes the platform itself serves. */
const HEALTH_DESCRIPTIONS = { Health: "Liveness and readiness probes for operators and load balancers; never rate-limited." };

const API_DESCRIPTION = [
  "A multi-tenant business-management API: contacts, customers, employees, leads, deals, projects, tasks, invoices,",
  "payments, recruitment and timesheets, each served by a package a workspace can switch on and off (GET /packages).",
  "",
  "Authenticate with `Authorization: Bearer <token>`: a session token (`bps_…`) from `POST /auth/token`, or an API token",
  "(`bpk_…`) created in the dashboard under Settings → API. Responses use the envelope `{success, data, meta?}`; errors",
  "`{success: false, error: {code, message, details?, request_id}}`. Money is an integer count of minor units plus an",
  "ISO 4217 currency. Webhook events are signed per Standard Webhooks; their payloads are under `webhooks`.",
].join("\n");

/** The tags of the operations a package serves: its resources' and its routers'. */
function tagsOf(manifest: PackageManifest): string[] {
  const routed = (manifest.routers ?? []).flatMap((router) =>
    router.openAPIRegistry.definitions.flatMap((definition) => (definition.type === "route" ? (definition.route.tags ?? []) : [])),
  );
  return [...new Set([...(manifest.resources ?? []).flatMap((definition) => definition.tags), ...routed])];
}

/** Reference navigation by package (`x-tagGroups`, read by Scalar and Redocly): the platform first. */
function tagGroups(manifests: PackageManifest[], used: Set<string>) {
  const groups = manifests
    .map((manifest) => ({ name: manifest.tier === "core" ? "Platform" : manifest.title, tags: tagsOf(manifest).filter((tag) => used.has(tag)) }))
    .filter((group) => group.tags.length > 0);
  const merged = new Map<string, string[]>();
  for (const group of groups) merged.set(group.name, [...new Set([...(merged.get(group.name) ?? []), ...group.tags])]);
  const grouped = new Set([...merged.values()].flat());
  const rest = [...used].filter((tag) => !grouped.has(tag));
  if (rest.length > 0) merged.set("Platform", [...(merged.get("Platform") ?? []), ...rest]);
  return [...merged].map(([name, tags]) => ({ name, tags }));
}

/** The OpenAPI 3.1 document of everything registered on `router`, served at /openapi.json. */
export function openApiDocument(router: OpenAPIHono<AppEnv>, serverUrl: string, registry: PackageRegistry) {
  const manifests = registry.all;
  const events = registry.events();
  const descriptions: Record<string, string> = { ...HEALTH_DESCRIPTIONS, ...registry.tagDescriptions() };
  const document = router.getOpenAPI31Document({
    openapi: "3.1.0",
    info: {
      title: "Business Platform API",
      version: "1.0.0",
      description: API_DESCRIPTION,
      license: { name: "Proprietary" },
    },
    servers: [{ url: serverUrl, description: "This deployment" }],
  });
  // SPDX: a license of our own (zod-to-openapi's types predate OpenAPI 3.1's `identifier`).
  document.info.license = { name: "Proprietary", identifier: "LicenseRef-Proprietary" } as typeof document.info.license;
  const used = new Set(
    Object.values(document.paths ?? {}).flatMap((item) => Object.values(item as Record<string, { tags?: string[] }>).flatMap((op) => op.tags ?? [])),
  );
  document.tags = [...used].sort().map((name) => ({ name, description: descriptions[name] ?? "" }));
  const schemas = (document.components?.schemas ?? {}) as Record<string, unknown>;
  for (const item of Object.values(document.paths ?? {})) {
    for (const operation of Object.values(item as Record<string, Record<string, unknown>>)) {
      const documented = operation["x-documented-body"];
      if (typeof documented !== "string") continue;
      delete operation["x-documented-body"];
      const media = (operation.requestBody as { content: Record<string, { schema: unknown; example?: unknown }> }).content["application/json"]!;
      media.schema = { $ref: `#/components/schemas/${documented}` };
      media.example ??= (schemas[documented] as { example?: unknown } | undefined)?.example;
    }
  }
  // Event types are known once the packages are: every `x-enum: event-types` node lists them (and `*`).
  const eventTypes = ["*", ...Object.keys(events).filter((type) => type !== "webhook.test")];
  const fill = (node: unknown): void => {
    if (Array.isArray(node)) {
      node.forEach(fill);
      return;
    }
    if (!node || typeof node !== "object") return;
    const record = node as Record<string, unknown>;
    if (record["x-enum"] === "event-types") {
      delete record["x-enum"];
      record.enum = eventTypes;
    }
    Object.values(record).forEach(fill);
  };
  fill(document.components);
  (document as unknown as Record<string, unknown>)["x-tagGroups"] = tagGroups(manifests, used);
  return document;
}

/** Documents each webhook event's payload under `webhooks` (OpenAPI 3.1), from the packages' declarations. */
export function registerWebhookDocs(router: OpenAPIHono<AppEnv>, events: Record<string, EventDeclaration>): void {
  for (const [type, entry] of Object.entries(events)) {
    const payload = z
      .object({
        id: z.string().openapi({ example: "evt_4Vd2…", description: "The event id; the webhook-id header; stable across retries" }),
        type: z.literal(type),
        timestamp: z.string().openapi({ format: "date-time" }),
        workspace_id: z.number().int(),
        data: entry.data,
        ...(entry.previous ? { previous_attributes: entry.previous } : {}),
      })
      .openapi(`Event_${type.replace(/[^a-z]+(.)/g, (_, next: string) => next.toUpperCase()).replace(/^./, (c) => c.toUpperCase())}`);
    router.openAPIRegistry.registerWebhook({
      method: "post",
      path: type,
      operationId: `on${type.replace(/(^|[._])(.)/g, (_, _sep: string, next: string) => next.toUpperCase())}`,
      summary: entry.description,
      description:
        "POSTed to each endpoint subscribed to this type (or *), signed per Standard Webhooks: headers webhook-id, webhook-timestamp and webhook-signature (v1,<base64 HMAC-SHA256>). Answer 2xx within 15 s; anything else is retried.",
      tags: ["Webhooks"],
      security: [],
      request: { body: { required: true, content: { "application/json": { schema: payload } } } },
      responses: { 200: { description: "Any 2xx acknowledges the delivery" }, 410: { description: "Gone: the endpoint is disabled" } },
    });
  }
}
