import { inArray, sql } from "drizzle-orm";
import { onEveryShard } from "../../platform/sweeps";
import { qualified as q, residentWorkspaces } from "../../platform/tenancy";
import { today } from "../../platform/time";
import { quotes } from "./schema";

const BATCH = 500;

/** Sent and past its last day (valid_until is the last day it can be accepted). */
const lapsedOn = (day: string) => sql`${q(quotes.status)} = 'sent' AND ${q(quotes.validUntil)} < ${day}`;

/**
 * Cron: sent quotes past valid_until become expired, per shard, for the workspaces living there (not those
 * being moved). The customer's page already treats them as expired; this makes the status say so.
 */
export const sweepExpiredQuotes = onEveryShard("quote expiry", async (shard, now, env, shardName) => {
  const day = today(now);
  const candidates = await shard.rows<{ id: number; workspace_id: number }>(
    sql`SELECT ${q(quotes.id)} AS id, ${q(quotes.workspaceId)} AS workspace_id FROM ${quotes} WHERE ${lapsedOn(day)} LIMIT ${BATCH}`,
  );
  if (candidates.length === 0) return;
  const resident = new Set(await residentWorkspaces(env, shardName, [...new Set(candidates.map((row) => row.workspace_id))]));
  const ids = candidates.filter((row) => resident.has(row.workspace_id)).map((row) => row.id);
  if (ids.length === 0) return;
  await shard
    .update(quotes, { status: "expired", updatedAt: now })
    .where(sql`${inArray(quotes.id, ids)} AND ${lapsedOn(day)}`)
    .run();
});
