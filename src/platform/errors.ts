import type { Context } from "hono";
import { HTTPException } from "hono/http-exception";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import { logError } from "./log";

/** The closed set of error codes (docs/api-conventions.md, Errors) and the status each maps to. */
export const ERROR_STATUS = {
  validation_error: 400,
  invalid_json: 400,
  invalid_cursor: 400,
  unauthorized: 401,
  forbidden: 403,
  package_disabled: 403,
  not_found: 404,
  method_not_allowed: 405,
  conflict: 409,
  invalid_transition: 409,
  idempotency_in_progress: 409,
  dependency_disabled: 409,
  package_required: 409,
  payload_too_large: 413,
  unsupported_media_type: 415,
  idempotency_key_reused: 422,
  rate_limited: 429,
  internal_error: 500,
  service_unavailable: 503,
} as const satisfies Record<string, ContentfulStatusCode>;

export type ErrorCode = keyof typeof ERROR_STATUS;

/**
 * One problem: the field it is about (`path`, dotted; "" when the error concerns the request as a whole)
 * and what is wrong, plus facts some codes add (invalid_transition: from, to, allowed; dependency_disabled:
 * missing; package_required: required_by; forbidden: missing_scope, accepted_scopes or role, required_role).
 */
export type ErrorDetail = { path: string; message: string; index?: number; [fact: string]: unknown };

export type ErrorBody = {
  code: ErrorCode;
  message: string;
  details?: ErrorDetail[];
  request_id?: string;
};

/** The one error type the API throws; `onError` turns it into the contract's envelope. */
export class ApiError extends Error {
  readonly status: ContentfulStatusCode;
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly options: {
      details?: ErrorBody["details"];
      headers?: Record<string, string>;
      cause?: unknown;
      /** The body field the error is about, when it has one (batches point their details at it). */
      field?: string;
    } = {},
  ) {
    super(message, { cause: options.cause });
    this.status = ERROR_STATUS[code];
  }

  static validation(details: ErrorDetail[]): ApiError {
    const first = details[0];
    const message = first ? `${first.path ? `${first.path}: ` : ""}${first.message}` : "invalid request";
    return new ApiError("validation_error", message, { details });
  }

  static notFound(what = "resource"): ApiError {
    return new ApiError("not_found", `${what} not found`);
  }

  body(requestId: string | undefined): ErrorBody {
    return {
      code: this.code,
      message: this.message,
      ...(this.options.details ? { details: this.options.details } : {}),
      ...(requestId ? { request_id: requestId } : {}),
    };
  }
}

/** Renders an ApiError as `{success: false, error}` with its headers. */
export function errorResponse(c: Context, error: ApiError): Response {
  const response = c.json({ success: false as const, error: error.body(c.get("requestId")) }, error.status);
  for (const [name, value] of Object.entries(error.options.headers ?? {})) response.headers.set(name, value);
  return response;
}

/** The single `onError`: known errors keep their code, anything else is logged and hidden as internal_error. */
export function handleError(err: Error, c: Context): Response {
  if (err instanceof ApiError) return errorResponse(c, err);
  // Hono's own guards (media type gate, JSON parser) throw HTTPException: keep them in the contract's shape.
  if (err instanceof HTTPException && err.status === 415)
    return errorResponse(c, new ApiError("unsupported_media_type", "Content-Type must be application/json"));
  if (err instanceof HTTPException && err.status === 400) return errorResponse(c, new ApiError("invalid_json", "The request body is not valid JSON"));
  logError("request failed", err, { request_id: c.get("requestId"), method: c.req.method, path: c.req.path, stack: err.stack });
  return errorResponse(c, new ApiError("internal_error", "An internal error occurred. Quote the request_id when contacting support."));
}
