import type { Context } from "hono";
import { configOf } from "../config";
import type { AppEnv } from "../context";

/** PUBLIC_BASE_URL, or the request's own origin in local development (never in production). */
export function publicOrigin(c: Context<AppEnv>): string {
  return configOf(c.env).publicBaseUrl ?? new URL(c.req.url).origin;
}

/** The API's public base URL (`…/api/v1`). */
export function apiBaseUrl(c: Context<AppEnv>): string {
  return `${publicOrigin(c)}/api/v1`;
}
