import { eq } from "drizzle-orm";
import type { MiddlewareHandler } from "hono";
import type { AppEnv } from "../context";
import { dispatchedPrincipal } from "../dispatch";
import { ApiError } from "../errors";
import { tokens } from "../schema";
import { platformOf } from "../services";
import { directoryOf } from "../tenancy";
import { unauthorized } from "./caller";
import { type Access, denial, isAllowed } from "./permissions";
import { resolveToken } from "./principal";

export { principalOf, unauthorized } from "./caller";

const BEARER = /^Bearer[ \t]+(\S+)[ \t]*$/i;

/** Resolves the bearer token, if any. Rejection is decided per route (see `authorize`). */
export const authenticate: MiddlewareHandler<AppEnv> = async (c, next) => {
  // An in-process call (see dispatch.ts) carries its caller's principal, already authenticated.
  const dispatched = dispatchedPrincipal(c.req.raw);
  if (dispatched) {
    c.set("principal", dispatched);
    c.set("dispatched", true);
    return next();
  }
  const header = c.req.header("authorization");
  if (header !== undefined) {
    const token = BEARER.exec(header)?.[1];
    const now = Date.now();
    const resolution = token ? await resolveToken(c, token, now) : null;
    if (resolution) {
      c.set("principal", resolution.principal);
      // Written at most once per cache period per isolate, off the response path.
      if (!resolution.fromCache) {
        c.executionCtx.waitUntil(directoryOf(c).update(tokens, { lastUsedAt: now }, eq(tokens.id, resolution.principal.tokenId)).run());
      }
    } else {
      c.set("credentialRejected", true);
    }
  }
  await next();
};

/** Route middleware: 401 without a valid credential, 403 when its role or scopes fall short. */
export function authorize(need: Access): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    if (need.kind !== "public") {
      const principal = c.get("principal");
      if (!principal) throw unauthorized(c.get("credentialRejected") === true);
      if (need.kind === "authenticated" && need.sessionOnly && principal.tokenKind !== "session") {
        throw new ApiError("forbidden", "This endpoint needs a session token, not an API token");
      }
      const { registry } = platformOf(c);
      if (!isAllowed(principal, need, registry)) {
        const { message, details } = denial(principal, need, registry);
        throw new ApiError("forbidden", message, details ? { details: [{ path: "", message, ...details }] } : {});
      }
    }
    await next();
  };
}

export function packageDisabled(name: string): ApiError {
  return new ApiError("package_disabled", `The ${name} package is disabled for this workspace; an admin can enable it with PUT /packages/${name}`, {
    details: [{ path: "", message: `the ${name} package is disabled`, package: name }],
  });
}

/**
 * Route gating, derived from the manifests: every route of a package's routers passes here first and
 * is refused (403 package_disabled) while the package is disabled for the caller's workspace. Without
 * a credential it lets the route's own authorization answer 401.
 */
export function requirePackage(name: string): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const principal = c.get("principal");
    if (principal?.disabledPackages.includes(name)) throw packageDisabled(name);
    await next();
  };
}
