import type { Context } from "hono";
import type { AppEnv, Principal } from "../context";
import { ApiError } from "../errors";

export function unauthorized(tokenWasSent: boolean, message?: string): ApiError {
  const challenge = tokenWasSent ? 'Bearer realm="api", error="invalid_token"' : 'Bearer realm="api"';
  message ??= tokenWasSent ? "The bearer token is malformed, unknown, expired or revoked" : "Authentication required: send Authorization: Bearer <token>";
  return new ApiError("unauthorized", message, { headers: { "WWW-Authenticate": challenge } });
}

/** The caller; only valid behind `authorize` with a non-public access. */
export function principalOf(c: Context<AppEnv>): Principal {
  const principal = c.get("principal");
  if (!principal) throw unauthorized(false);
  return principal;
}
