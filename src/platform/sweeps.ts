import { and, isNotNull, lt } from "drizzle-orm";
import type { Env } from "./context";
import { logError } from "./log";
import type { Background, Sweep } from "./packages";
import { tokens } from "./schema";
import { acrossWorkspaces, everyShard, type Unscoped } from "./tenancy";

export type { Sweep } from "./packages";

/** Expired sessions and API tokens are useless rows: drop them. */
export const sweepExpiredTokens: Sweep = {
  name: "expired tokens",
  run: (env, now) =>
    acrossWorkspaces(env, "directory")
      .delete(tokens)
      .where(and(isNotNull(tokens.expiresAt), lt(tokens.expiresAt, now)))
      .run(),
};

/** A sweep of business tables, run on every shard (each on its own; one failing does not stop the others). */
export function onEveryShard(name: string, sweep: (shard: Unscoped, now: number, env: Env, shardName: string) => Promise<unknown>): Sweep {
  return {
    name,
    run: async (env, now) => {
      const shards = everyShard(env);
      const results = await Promise.allSettled(shards.map((shard) => sweep(shard.data, now, env, shard.name)));
      const failed = results.flatMap((result, i) => (result.status === "rejected" ? [`${shards[i]!.name}: ${String(result.reason)}`] : []));
      if (failed.length > 0) throw new Error(failed.join("; "));
    },
  };
}

/** Runs every sweep; one failing does not stop the others. */
export async function runSweeps(env: Env, sweeps: Sweep[], worker: Background, now = Date.now()): Promise<void> {
  const results = await Promise.allSettled(sweeps.map((sweep) => sweep.run(env, now, worker)));
  results.forEach((result, i) => {
    if (result.status === "rejected") logError("sweep failed", result.reason, { sweep: sweeps[i]!.name });
  });
}
