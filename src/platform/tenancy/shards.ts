import { sql } from "drizzle-orm";
import type { Env } from "../context";
import { HOLD_LIMIT_MS, isHeld } from "./hold";

/**
 * Workspaces' business data lives in shards: the D1 bindings named in SHARDS ("DB,SHARD_1"; DB, the
 * directory, is also shard 0). The directory's `workspaces.shard` maps each workspace to its shard; a new
 * workspace goes to the one with the fewest workspaces. Only the tenancy module reaches a shard (tenantOf
 * for a request's workspace, the background helpers for sweeps), and no query spans two.
 */

/** The shard names of this deployment, in order (at least DB). */
export function shardNames(env: Env): string[] {
  const names = (env.SHARDS ?? "DB")
    .split(",")
    .map((name) => name.trim())
    .filter(Boolean);
  return names.length > 0 ? names : ["DB"];
}

/** The D1 binding of a shard; a name that is not bound is a configuration error. */
export function shardDatabase(env: Env, name: string): D1Database {
  const binding = name === "DB" ? env.DB : (env as unknown as Record<string, D1Database | undefined>)[name];
  if (!binding || !shardNames(env).includes(name)) throw new Error(`shard ${name} is not bound or not listed in SHARDS`);
  return binding;
}

/** Every shard, for the jobs that walk them all (sweeps). */
export function allShards(env: Env): { name: string; db: D1Database }[] {
  return shardNames(env).map((name) => ({ name, db: shardDatabase(env, name) }));
}

/** SQL for the shard with the fewest workspaces (ties: the first listed), to place a new workspace in one statement. */
export function leastLoadedShard(env: Env) {
  return sql`(SELECT s.value FROM json_each(${JSON.stringify(shardNames(env))}) s
              LEFT JOIN workspaces w ON w.shard = s.value GROUP BY s.key, s.value ORDER BY count(w.id), s.key LIMIT 1)`;
}

/** Where a workspace's rows are, and whether a move holds them, from the directory (null: no such workspace). */
export async function placementOf(env: Env, workspaceId: number, now = Date.now()): Promise<{ shard: string; held: boolean } | null> {
  const row = await env.DB.prepare("SELECT shard, moving_since FROM workspaces WHERE id = ?")
    .bind(workspaceId)
    .first<{ shard: string; moving_since: number | null }>();
  return row ? { shard: row.shard, held: isHeld(row.moving_since, now) } : null;
}

/**
 * Of the given workspaces with rows on a shard, those the directory maps to it and that are not being
 * moved: background jobs act on these only, so rows a move has copied away (and not yet deleted) are
 * never sent twice.
 */
export async function residentWorkspaces(env: Env, shard: string, workspaceIds: number[]): Promise<number[]> {
  if (workspaceIds.length === 0) return [];
  const rows = await env.DB.prepare(
    "SELECT id FROM workspaces WHERE id IN (SELECT value FROM json_each(?1)) AND shard = ?2 AND (moving_since IS NULL OR moving_since <= ?3)",
  )
    .bind(JSON.stringify(workspaceIds), shard, Date.now() - HOLD_LIMIT_MS)
    .all<{ id: number }>();
  return rows.results.map((row) => row.id);
}
