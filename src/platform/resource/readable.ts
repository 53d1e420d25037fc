import { packageDisabled } from "../auth/middleware";
import { access, denial, isAllowed } from "../auth/permissions";
import type { Principal } from "../context";
import type { ApiErrorBody } from "../dispatch";
import { ApiError } from "../errors";
import type { PackageRegistry } from "../packages";

/**
 * Why `principal` may not list `resource` — the list route's own gate (its package enabled, the read role
 * or token scope) — or null when they may. For in-process readers that query a resource's table themselves
 * (the assistant's aggregates) and must refuse exactly as the route would, without running the route.
 */
export function listRefusal(registry: PackageRegistry, principal: Principal, resource: string): ApiErrorBody | null {
  const owner = registry.definitions().find(({ definition }) => definition.name === resource);
  if (!owner) return { code: "not_found", message: `${resource} not found` };
  const error = principal.disabledPackages.includes(owner.pkg) ? packageDisabled(owner.pkg) : refusalOf(registry, principal, resource);
  return error ? { code: error.code, message: error.message, ...(error.options.details ? { details: error.options.details } : {}) } : null;
}

function refusalOf(registry: PackageRegistry, principal: Principal, resource: string): ApiError | null {
  const need = access.read(resource);
  if (isAllowed(principal, need, registry)) return null;
  const { message, details } = denial(principal, need, registry);
  return new ApiError("forbidden", message, details ? { details: [{ path: "", message, ...details }] } : {});
}
