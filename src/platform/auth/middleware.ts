import { eq } from "drizzle-orm";
import type { Context, MiddlewareHandler } from "hono";
import type { AppEnv } from "../context";
import { sessionAware } from "../d1-session";
import { database, Tenant } from "../db";
import { dispatchedPrincipal } from "../dispatch";
import { ApiError } from "../errors";
import { tokens } from "../schema";
import { shardDatabase } from "../shards";
import { type Access, denial, isAllowed } from "./permissions";
import { type Principal, resolveToken } from "./principal";

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
    const resolution = token ? await resolveToken(c.env.DB, token, now) : null;
    if (resolution) {
      c.set("principal", resolution.principal);
      // Written at most once per cache period per isolate, off the response path.
      if (!resolution.fromCache) {
        c.executionCtx.waitUntil(database(c.env.DB).update(tokens).set({ lastUsedAt: now }).where(eq(tokens.id, resolution.principal.tokenId)).run());
      }
    } else {
      c.set("credentialRejected", true);
    }
  }
  await next();
};

export function unauthorized(tokenWasSent: boolean, message?: string): ApiError {
  const challenge = tokenWasSent ? 'Bearer realm="api", error="invalid_token"' : 'Bearer realm="api"';
  message ??= tokenWasSent ? "The bearer token is malformed, unknown, expired or revoked" : "Authentication required: send Authorization: Bearer <token>";
  return new ApiError("unauthorized", message, { headers: { "WWW-Authenticate": challenge } });
}

/** Route middleware: 401 without a valid credential, 403 when its role or scopes fall short. */
export function authorize(need: Access): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    if (need.kind !== "public") {
      const principal = c.get("principal");
      if (!principal) throw unauthorized(c.get("credentialRejected") === true);
      if (need.kind === "authenticated" && need.sessionOnly && principal.tokenKind !== "session") {
        throw new ApiError("forbidden", "This endpoint needs a session token, not an API token");
      }
      if (!isAllowed(principal, need)) {
        const { message, details } = denial(principal, need);
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

/** The caller; only valid behind `authorize` with a non-public access. */
export function principalOf(c: Context<AppEnv>): Principal {
  const principal = c.get("principal");
  if (!principal) throw unauthorized(false);
  return principal;
}

/**
 * The caller's workspace as a query scope — the one place every business query starts from — on its
 * shard (in the request's D1 session), or on another database (the analytics one).
 */
export function tenantOf(c: Context<AppEnv>, on?: D1Database): Tenant {
  const principal = principalOf(c);
  // The workspace's shard, in the request's session (replicas, bookmarks); or the database asked for.
  const d1 = on ?? sessionAware(shardDatabase(c.env, principal.shard));
  return new Tenant(database(d1), principal.workspace.id, () => c.set("eventsRecorded", true), principal.disabledPackages);
}

/** The caller's workspace on the directory (workspaces, users, tokens, SSO apps, chat integrations). */
export function directoryOf(c: Context<AppEnv>): Tenant {
  const principal = principalOf(c);
  return new Tenant(database(sessionAware(c.env.DB)), principal.workspace.id, () => {}, principal.disabledPackages);
}
