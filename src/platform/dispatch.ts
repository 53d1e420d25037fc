import type { Context } from "hono";
import type { AppEnv, Principal } from "./context";
import type { ErrorCode } from "./errors";
import { platformOf } from "./services";

/**
 * Calls an API route in-process, as a given principal: the request goes through the same pipeline as
 * one from the network — validation, roles and token scopes, package gating, the write path, events,
 * idempotency — with no network and no second authentication. The assistant's tools are built on it,
 * so what it reads and writes is exactly what the caller could over HTTP. The principal travels in a
 * WeakMap keyed by the Request object: nothing a client sends can claim one.
 */
// An association of in-flight Request objects (never enumerable, gone with them), not shared state.
const principals = new WeakMap<Request, Principal>();

/** The principal of an in-process request, if it is one. */
export function dispatchedPrincipal(request: Request): Principal | undefined {
  return principals.get(request);
}

export type ApiErrorBody = { code: ErrorCode; message: string; details?: unknown };
export type Dispatched<T> = { ok: true; status: number; data: T; meta?: Record<string, unknown> } | { ok: false; status: number; error: ApiErrorBody };

export async function dispatch<T = unknown>(
  c: Context<AppEnv>,
  principal: Principal | null,
  method: string,
  path: string,
  options: { body?: unknown; headers?: Record<string, string> } = {},
): Promise<Dispatched<T>> {
  // Without a principal (a sign-in form) the call is anonymous and counted per client IP, as over HTTP.
  const ip = c.req.header("cf-connecting-ip");
  const request = new Request(new URL(`/api/v1${path}`, c.req.url), {
    method,
    headers: {
      ...(options.body !== undefined ? { "content-type": "application/json" } : {}),
      ...(principal || !ip ? {} : { "cf-connecting-ip": ip }),
      ...options.headers,
    },
    body: options.body === undefined ? undefined : JSON.stringify(options.body),
  });
  if (principal) principals.set(request, principal);
  const response = await platformOf(c).fetch(request, c.env, c.executionCtx as ExecutionContext<unknown>);
  const json = (await response.json()) as { success?: boolean; data?: T; meta?: Record<string, unknown>; error?: ApiErrorBody };
  if (!response.ok) return { ok: false, status: response.status, error: json.error ?? { code: "internal_error", message: `HTTP ${response.status}` } };
  // Most routes answer {success, data, meta}; a few (POST /auth/token) answer their object as it is.
  return json.success === true
    ? { ok: true, status: response.status, data: json.data as T, ...(json.meta ? { meta: json.meta } : {}) }
    : { ok: true, status: response.status, data: json as T };
}
