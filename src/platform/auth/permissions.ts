import type { PackageRegistry } from "../packages";
import type { Role } from "../schema";

/** A business resource a package serves ("contacts", "job-openings"): scopes are `<resource>:read|write`. */
export type BusinessResource = string;

export const BROAD_SCOPES = ["read", "write", "admin"] as const;
export const DEFAULT_API_TOKEN_SCOPES = ["write"];

/** read, write, admin, and `<resource>:read|write` for every resource of the packages in this build. */
export function knownScopes(registry: PackageRegistry): string[] {
  return [...BROAD_SCOPES, ...registry.resources().flatMap((resource) => [`${resource}:read`, `${resource}:write`])];
}

/** What a route needs from its caller. */
export type Access =
  | { kind: "public" }
  /** Any valid bearer token; `sessionOnly` refuses API tokens. */
  | { kind: "authenticated"; sessionOnly?: boolean }
  | { kind: "resource"; resource: BusinessResource; action: "read" | "write" }
  /** Users, API tokens, webhooks, SSO apps, packages. */
  | { kind: "admin" }
  /** The subscription: an owner's session. */
  | { kind: "owner" };

export const access = {
  public: { kind: "public" } as Access,
  authenticated: { kind: "authenticated" } as Access,
  session: { kind: "authenticated", sessionOnly: true } as Access,
  read: (resource: BusinessResource): Access => ({ kind: "resource", resource, action: "read" }),
  write: (resource: BusinessResource): Access => ({ kind: "resource", resource, action: "write" }),
  admin: { kind: "admin" } as Access,
  owner: { kind: "owner" } as Access,
};

const ROLE_RANK: Record<Role, number> = { viewer: 0, member: 1, admin: 2, owner: 3 };

function roleAllows(role: Role, need: Access, registry: PackageRegistry): boolean {
  switch (need.kind) {
    case "public":
    case "authenticated":
      return true;
    case "resource":
      return ROLE_RANK[role] >= ROLE_RANK[registry.minimumRole(need.resource, need.action)];
    case "admin":
      return ROLE_RANK[role] >= ROLE_RANK.admin;
    case "owner":
      return role === "owner";
  }
}

function scopesAllow(scopes: readonly string[], need: Access): boolean {
  const has = (scope: string) => scopes.includes(scope);
  switch (need.kind) {
    case "public":
    case "authenticated":
      return true;
    case "resource":
      if (has("admin") || has("write") || has(`${need.resource}:write`)) return true;
      return need.action === "read" && (has("read") || has(`${need.resource}:read`));
    case "admin":
      return has("admin");
    case "owner":
      // Owner-only actions need the owner's own session, never a token that can leak into a CI system.
      return false;
  }
}

/** The scopes any one of which lets an API token through `need`; the first is the narrowest. */
export function acceptedScopes(need: Access): string[] {
  switch (need.kind) {
    case "public":
    case "authenticated":
      return [];
    case "resource":
      return need.action === "read"
        ? [`${need.resource}:read`, `${need.resource}:write`, "read", "write", "admin"]
        : [`${need.resource}:write`, "write", "admin"];
    case "admin":
      return ["admin"];
    case "owner":
      return [];
  }
}

const MINIMUM_ROLE: Record<Exclude<Access["kind"], "public" | "authenticated">, string> = {
  resource: "",
  admin: "admin or owner",
  owner: "owner",
};

/** Why `principal` may not pass `need`, naming the role or the scope it lacks. */
export function denial(
  principal: { role: Role; scopes: readonly string[] | null },
  need: Access,
  registry: PackageRegistry,
): { message: string; details?: Record<string, unknown> } {
  if (need.kind === "public" || need.kind === "authenticated") return { message: "Not allowed" };
  if (!roleAllows(principal.role, need, registry)) {
    const minimum = need.kind === "resource" ? `${registry.minimumRole(need.resource, need.action)} or above` : MINIMUM_ROLE[need.kind];
    const action = need.kind === "resource" ? `${need.action} ${need.resource}` : need.kind === "admin" ? "administer the workspace" : "do this";
    return { message: `Your role (${principal.role}) cannot ${action}; that needs ${minimum}`, details: { role: principal.role, required_role: minimum } };
  }
  if (need.kind === "owner") return { message: "Owner-only actions need the owner's own session; API tokens never have them" };
  const accepted = acceptedScopes(need);
  return {
    message: `This API token lacks the scope ${accepted[0]}${accepted.length > 1 ? ` (or one of ${accepted.slice(1).join(", ")})` : ""}`,
    details: { missing_scope: accepted[0], accepted_scopes: accepted },
  };
}

/**
 * A session acts with its user's role; an API token with its scopes, bounded by the role of the
 * user who created it (a demoted admin's tokens lose admin powers).
 */
export function isAllowed(principal: { role: Role; scopes: readonly string[] | null }, need: Access, registry: PackageRegistry): boolean {
  if (!roleAllows(principal.role, need, registry)) return false;
  return principal.scopes === null || scopesAllow(principal.scopes, need);
}

/**
 * Owner powers (creating, promoting, demoting or removing an owner; the subscription) need the owner's
 * own session: an API token never has them, even one its owner created with the admin scope.
 */
export function actsAsOwner(principal: { role: Role; scopes: readonly string[] | null }): boolean {
  return principal.role === "owner" && principal.scopes === null;
}
