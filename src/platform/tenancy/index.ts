/**
 * Tenancy: the only way to reach tenant data. A request's workspace on its shard (tenantOf), on the
 * directory (directoryOf) or on the analytics database (analyticsOf) is a Tenant, whose every query is
 * bound to that workspace; background jobs get a workspace's Tenant with tenantOn, and the few jobs that
 * must work across workspaces say so with acrossWorkspaces. Nothing outside this folder holds a D1 binding
 * (npm test checks it: scripts/check-architecture.mjs).
 */
import { type SQL, sql } from "drizzle-orm";
import type { Context } from "hono";
import { principalOf } from "../auth/caller";
import type { AppEnv, Env } from "../context";
import { database, qualified } from "./database";
import { sessionAware } from "./session";
import { allShards, shardDatabase, shardNames } from "./shards";
import { type ExtensionSource, Tenant, type TenantTable } from "./tenant";
import { Unscoped } from "./unscoped";

export { qualified, tableAs } from "./database";

/**
 * `inner.workspace_id = outer.workspace_id`: a correlated subquery or join in a definition's computed SQL
 * (built before there is a request) stays in the workspace of the row it belongs to; that row's own
 * query is scoped by its Tenant. Name the inner table with drizzle's alias() when it is the outer one too.
 */
export function sameWorkspace(inner: TenantTable, outer: TenantTable): SQL {
  return sql`${qualified(inner.workspaceId)} = ${qualified(outer.workspaceId)}`;
}
export { HOLD_LIMIT_MS, isHeld } from "./hold";
export { BOOKMARK_HEADER, d1Session } from "./session";
export { leastLoadedShard, placementOf, residentWorkspaces, shardNames } from "./shards";
export type { ExtensionSource, NewValues, Statement, TenantTable, Values } from "./tenant";
export { Tenant } from "./tenant";
export type { Unscoped } from "./unscoped";

/** What a workspace's tenant knows of the packages: which are off, and what enabled ones add to resources. */
function packagesOf(registry: ExtensionSource, disabled: readonly string[]) {
  return { disabled, extensionsOf: (resource: string) => registry.extensionsOf(resource) };
}

/** The caller's workspace on its shard, in the request's D1 session (replicas, bookmarks). */
export function tenantOf(c: Context<AppEnv>): Tenant {
  const principal = principalOf(c);
  const d1 = sessionAware(shardDatabase(c.env, principal.shard));
  return new Tenant(database(d1), principal.workspace.id, packagesOf(c.get("platform").registry, principal.disabledPackages), () =>
    c.set("eventsRecorded", true),
  );
}

/** The caller's workspace on the directory: its users, tokens, SSO apps, chat integrations. */
export function directoryOf(c: Context<AppEnv>): Tenant {
  const principal = principalOf(c);
  return new Tenant(database(sessionAware(c.env.DB)), principal.workspace.id, packagesOf(c.get("platform").registry, principal.disabledPackages));
}

/** The caller's workspace on the analytics database. */
export function analyticsOf(c: Context<AppEnv>): Tenant {
  const principal = principalOf(c);
  return new Tenant(database(c.env.ANALYTICS_DB), principal.workspace.id, packagesOf(c.get("platform").registry, principal.disabledPackages));
}

/** A workspace's tenant outside a request (queue consumers, cron), on its shard or the analytics database. */
export function tenantOn(
  env: Env,
  registry: ExtensionSource,
  workspace: { id: number; shard: string; disabledPackages?: readonly string[] },
  on: "shard" | "analytics" = "shard",
): Tenant {
  const d1 = on === "analytics" ? env.ANALYTICS_DB : shardDatabase(env, workspace.shard);
  return new Tenant(database(d1), workspace.id, packagesOf(registry, workspace.disabledPackages ?? []));
}

/** A workspace named by something other than a credential (a signed token's claim) on the directory. */
export function directoryFor(env: Env, registry: ExtensionSource, workspaceId: number): Tenant {
  return new Tenant(database(sessionAware(env.DB)), workspaceId, packagesOf(registry, []));
}

/** A database across workspaces (see Unscoped): the directory, one shard by name, or the analytics database. */
export function acrossWorkspaces(env: Env, which: "directory" | "analytics" | { shard: string }): Unscoped {
  const d1 = which === "directory" ? env.DB : which === "analytics" ? env.ANALYTICS_DB : shardDatabase(env, which.shard);
  return new Unscoped(database(which === "directory" ? sessionAware(d1) : d1));
}

/** Every shard across workspaces, for sweeps: each with its name. */
export function everyShard(env: Env): { name: string; data: Unscoped }[] {
  return allShards(env).map(({ name, db }) => ({ name, data: new Unscoped(database(db)) }));
}

/** Whether a shard name is one of this deployment's. */
export function isShard(env: Env, name: string): boolean {
  return shardNames(env).includes(name);
}

/** `SELECT 1` on the directory (and, on request, every shard): the readiness probe. */
export async function reachable(env: Env, everyDatabase: boolean): Promise<boolean> {
  const databases = everyDatabase ? [...new Set([env.DB, ...allShards(env).map((shard) => shard.db)])] : [env.DB];
  const answers = await Promise.all(
    databases.map((db) =>
      db
        .prepare("SELECT 1 AS ok")
        .first<{ ok: number }>()
        .then((row) => row?.ok === 1)
        .catch(() => false),
    ),
  );
  return answers.every(Boolean);
}
