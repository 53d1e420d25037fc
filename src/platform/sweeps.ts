import { and, isNotNull, lt } from "drizzle-orm";
import type { Env } from "./context";
import { database } from "./db";
import { logError } from "./log";
import { tokens } from "./schema";
import { allShards } from "./shards";

export type Sweep = (env: Env, now: number) => Promise<unknown>;

/** Expired sessions and API tokens are useless rows: drop them. */
export const sweepExpiredTokens: Sweep = (env, now) =>
  database(env.DB)
    .delete(tokens)
    .where(and(isNotNull(tokens.expiresAt), lt(tokens.expiresAt, now)))
    .run();

/** A sweep of business tables, run on every shard (each on its own; one failing does not stop the others). */
export function onEveryShard(name: string, sweep: (db: D1Database, now: number) => Promise<unknown>): Sweep {
  const run: Sweep = async (env, now) => {
    const shards = allShards(env);
    const results = await Promise.allSettled(shards.map((shard) => sweep(shard.db, now)));
    const failed = results.flatMap((result, i) => (result.status === "rejected" ? [`${shards[i]!.name}: ${String(result.reason)}`] : []));
    if (failed.length > 0) throw new Error(failed.join("; "));
  };
  Object.defineProperty(run, "name", { value: name });
  return run;
}

/** Runs every sweep; one failing does not stop the others. */
export async function runSweeps(env: Env, sweeps: Sweep[], now = Date.now()): Promise<void> {
  const results = await Promise.allSettled(sweeps.map((sweep) => sweep(env, now)));
  results.forEach((result, i) => {
    if (result.status === "rejected") logError("sweep failed", result.reason, { sweep: sweeps[i]!.name || `#${i}` });
  });
}
