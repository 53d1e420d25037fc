import { createRoute, type RouteConfig, z } from "@hono/zod-openapi";
import { authorize } from "./auth/middleware";
import type { Access } from "./auth/permissions";
import { ERROR_STATUS, type ErrorCode } from "./errors";
import { idempotency } from "./idempotency";

export const ErrorEnvelope = z
  .object({
    success: z.literal(false),
    error: z.object({
      code: z.enum(Object.keys(ERROR_STATUS) as [ErrorCode, ...ErrorCode[]]),
      message: z.string(),
      details: z
        .union([z.array(z.object({ path: z.string(), message: z.string(), index: z.number().int().optional() })), z.record(z.string(), z.unknown())])
        .optional(),
      request_id: z.string(),
    }),
  })
  .openapi("Error");

const errorResponse = (description: string) => ({ description, content: { "application/json": { schema: ErrorEnvelope } } });

/** Every route can answer with these; documenting them once keeps the spec and the runtime in step. */
const ERROR_RESPONSES = {
  400: errorResponse("validation_error, invalid_json or invalid_cursor"),
  401: errorResponse("unauthorized: missing, malformed, unknown, expired or revoked token"),
  403: errorResponse("forbidden or package_disabled"),
  404: errorResponse("not_found (also for another workspace's ids)"),
  409: errorResponse("conflict, invalid_transition or idempotency_in_progress"),
  413: errorResponse("payload_too_large"),
  415: errorResponse("unsupported_media_type"),
  422: errorResponse("idempotency_key_reused"),
  429: errorResponse("rate_limited"),
  500: errorResponse("internal_error"),
} as const;

/** `{success: true, data}` */
export function envelope<T extends z.ZodType>(data: T) {
  return z.object({ success: z.literal(true), data });
}

export function jsonContent<T extends z.ZodType>(schema: T, description: string) {
  return { description, content: { "application/json": { schema } } };
}

export function jsonBodyOf<T extends z.ZodType>(schema: T) {
  return { required: true, content: { "application/json": { schema } } };
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

type RouteInput = Omit<RouteConfig, "middleware" | "security">;

/**
 * A route with its access rule: authorization runs before validation (401/403 before 400),
 * the bearer scheme and the error responses are documented, and a route without a query
 * schema refuses any query parameter (unknown parameters are a 400, as for bodies).
 */
export function defineRoute<const R extends RouteInput>(need: Access, config: R) {
  // Idempotency replays run after authorization: a caller who may not make the request gets no replay.
  const replayable = config.method === "post" && need.kind !== "public";
  const route = createRoute({
    ...config,
    middleware: replayable ? ([authorize(need), idempotency] as const) : ([authorize(need)] as const),
    security: need.kind === "public" ? [] : [{ bearerAuth: [] }],
    responses: { ...ERROR_RESPONSES, ...config.responses },
  });
  if (!route.request?.query) Object.assign(route, { request: { ...route.request, query: z.strictObject({}) } });
  return route;
}
