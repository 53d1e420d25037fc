import { and, isNotNull, lt } from "drizzle-orm";
import type { Env } from "./context";
import { database } from "./db";
import { logError } from "./log";
import { tokens } from "./schema";

export type Sweep = (env: Env, now: number) => Promise<unknown>;

/** Expired sessions and API tokens are useless rows: drop them. */
export const sweepExpiredTokens: Sweep = (env, now) =>
  database(env.DB).delete(tokens).where(and(isNotNull(tokens.expiresAt), lt(tokens.expiresAt, now))).run();

/** Runs every sweep; one failing does not stop the others. */
export async function runSweeps(env: Env, sweeps: Sweep[], now = Date.now()): Promise<void> {
  const results = await Promise.allSettled(sweeps.map((sweep) => sweep(env, now)));
  results.forEach((result, i) => {
    if (result.status === "rejected") logError("sweep failed", result.reason, { sweep: sweeps[i]!.name || `#${i}` });
  });
}
