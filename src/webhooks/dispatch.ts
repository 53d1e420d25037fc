import type { Env } from "../platform/context";
import { logError } from "../platform/log";
import type { WorkspaceOnShard } from "../platform/packages";
import { allShards, residentWorkspaces, shardDatabase } from "../platform/shards";
import type { Sweep } from "../platform/sweeps";

/**
 * One attempt of one delivery of a workspace. The consumer finds the delivery on the workspace's shard
 * in the directory (a move keeps its id); messages sent before that carry only the shard they were
 * sent from, or none (DB).
 */
export type WebhookMessage = { deliveryId: number; workspaceId?: number; shard?: string };

/** Events fanned out per D1 batch: the statements name them by a subquery, never by a bound list. */
const EVENTS_PER_ROUND = 100;
/** Queue messages per sendBatch call (the Queues limit). */
const MESSAGES_PER_SEND = 100;

/** The next events of a workspace that were never fanned out, oldest first (binds the workspace id). */
const NEXT_EVENTS = `SELECT id FROM events WHERE workspace_id = ?1 AND enqueued_at IS NULL ORDER BY created_at, id LIMIT ${EVENTS_PER_ROUND}`;

/**
 * One round of fan-out, atomically: in one D1 batch, a delivery row per (event, subscribed endpoint)
 * is inserted straight from the events joined to the endpoints (those that existed when the event
 * happened: an endpoint never receives older events), and the same events are claimed.
 * A crash after the batch leaves pending deliveries that the sweep re-sends; a crash before it leaves
 * unclaimed events that the sweep dispatches. Nothing is claimed without its deliveries.
 */
async function fanOutRound(d1: D1Database, workspaceId: number, now: number): Promise<{ claimed: number; deliveryIds: number[] }> {
  const [inserted, claimed] = await d1.batch<{ id: number }>([
    d1
      .prepare(
        `INSERT INTO webhook_deliveries (workspace_id, endpoint_id, event_id, event_type, attempt, status, next_attempt_at, created_at, updated_at)
         SELECT e.workspace_id, w.id, e.id, e.type, 0, 'pending', ?2, ?2, ?2
         FROM events e JOIN webhook_endpoints w ON w.workspace_id = e.workspace_id AND w.enabled = 1 AND w.created_at <= e.created_at
         WHERE e.id IN (${NEXT_EVENTS})
           AND CASE WHEN e.type = 'webhook.test'
             THEN json_extract(e.data, '$.webhook_id') = w.id
             ELSE EXISTS (SELECT 1 FROM json_each(w.events) WHERE value IN ('*', e.type)) END
         ON CONFLICT (endpoint_id, event_id) DO NOTHING
         RETURNING id`,
      )
      .bind(workspaceId, now),
    d1.prepare(`UPDATE events SET enqueued_at = ?2 WHERE id IN (${NEXT_EVENTS}) RETURNING id`).bind(workspaceId, now),
  ]);
  return { claimed: claimed!.results.length, deliveryIds: inserted!.results.map((row) => row.id) };
}

// Whether a workspace has an enabled endpoint, per isolate for a few seconds: most workspaces have none,
// and their writes then cost no fan-out batch after the response (the sweep claims their events).
const SUBSCRIBERS_TTL_MS = 10_000;
const subscribers = new Map<number, { any: boolean; at: number; shard: string }>();

/** Forgets what this isolate knows of a workspace's endpoints (after one is created, changed or deleted). */
export function forgetSubscribers(workspaceId: number): void {
  subscribers.delete(workspaceId);
}

async function hasEndpoints(env: Env, workspace: WorkspaceOnShard, now: number): Promise<boolean> {
  const known = subscribers.get(workspace.id);
  if (known && known.shard === workspace.shard && now - known.at < SUBSCRIBERS_TTL_MS) return known.any;
  const row = await shardDatabase(env, workspace.shard)
    .prepare("SELECT EXISTS (SELECT 1 FROM webhook_endpoints WHERE workspace_id = ?1 AND enabled = 1) AS any")
    .bind(workspace.id)
    .first<{ any: number }>();
  if (subscribers.size > 10_000) subscribers.clear();
  subscribers.set(workspace.id, { any: row?.any === 1, at: now, shard: workspace.shard });
  return row?.any === 1;
}

/**
 * After a request recorded events: fan them out at once when the workspace has endpoints. Without any
 * (as far as this isolate knew in the last 10 s), the cron sweep claims them within a minute or two.
 */
export async function dispatchAfterRequest(env: Env, workspace: WorkspaceOnShard, now = Date.now()): Promise<number> {
  return (await hasEndpoints(env, workspace, now)) ? dispatchEvents(env, workspace, now) : 0;
}

/**
 * Moves a workspace's new outbox events to the queue: fan-out rounds of up to 100 events until none
 * are left (or `rounds` ran), then one message per new delivery. A failed send loses nothing: the
 * deliveries are pending in D1 and the sweep re-sends them.
 */
export async function dispatchEvents(env: Env, workspace: WorkspaceOnShard, now = Date.now(), rounds = 50): Promise<number> {
  let sent = 0;
  for (let round = 0; round < rounds; round++) {
    const { claimed, deliveryIds } = await fanOutRound(shardDatabase(env, workspace.shard), workspace.id, now);
    await sendMessages(
      env,
      workspace.shard,
      deliveryIds.map((id) => ({ id, workspaceId: workspace.id })),
    );
    sent += deliveryIds.length;
    if (claimed < EVENTS_PER_ROUND) break;
  }
  return sent;
}

export async function sendMessages(env: Env, shard: string, deliveries: { id: number; workspaceId: number }[]): Promise<void> {
  for (let i = 0; i < deliveries.length; i += MESSAGES_PER_SEND) {
    await env.WEBHOOKS_QUEUE.sendBatch(
      deliveries.slice(i, i + MESSAGES_PER_SEND).map(({ id, workspaceId }) => ({ body: { deliveryId: id, workspaceId, shard } satisfies WebhookMessage })),
    );
  }
}

/** Seconds from `value` (a wrangler var), or the default when it is empty or not a positive number. */
function seconds(value: string | undefined, fallback: number): number {
  const parsed = Number(value);
  return value && Number.isFinite(parsed) && parsed > 0 ? parsed : fallback;
}

/** Workspaces served per sweep, and stale deliveries re-sent per workspace per sweep. */
const WORKSPACES_PER_SWEEP = 100;
const REDELIVERIES_PER_WORKSPACE = 50;
const REDELIVERIES_PER_SWEEP = 1000;

/**
 * Cron, on every shard, fair across workspaces: (1) each workspace with events older than
 * OUTBOX_GRACE_SECONDS that were never fanned out gets one round (100 events), oldest first, so one busy
 * workspace cannot starve the others; (2) pending deliveries whose attempt is REDELIVER_AFTER_SECONDS
 * overdue lost their queue message (a crash, a failed send, a shard move): up to 50 per workspace are
 * re-sent. One workspace or shard failing does not stop the rest; every failure is logged with its cause.
 */
export const sweepOutbox: Sweep = async (env, now) => {
  await Promise.all(
    allShards(env).map(({ name, db }) =>
      sweepShardOutbox(env, name, db, now).catch((error: unknown) => logError("outbox sweep failed", error, { shard: name })),
    ),
  );
};

async function sweepShardOutbox(env: Env, shard: string, db: D1Database, now: number): Promise<void> {
  const grace = seconds(env.OUTBOX_GRACE_SECONDS, 30) * 1000;
  const stale = seconds(env.REDELIVER_AFTER_SECONDS, 600) * 1000;

  const waiting = await db
    .prepare(
      `SELECT workspace_id FROM events WHERE enqueued_at IS NULL AND created_at < ?1
       GROUP BY workspace_id ORDER BY min(created_at) LIMIT ${WORKSPACES_PER_SWEEP}`,
    )
    .bind(now - grace)
    .all<{ workspace_id: number }>();
  for (const id of await residentWorkspaces(
    env,
    shard,
    waiting.results.map((row) => row.workspace_id),
  )) {
    await dispatchEvents(env, { id, shard }, now, 1).catch((error: unknown) => logError("outbox sweep: dispatch failed", error, { workspace_id: id }));
  }

  const OVERDUE = "status = 'pending' AND next_attempt_at < ?2 AND (locked_until IS NULL OR locked_until < ?1)";
  const late = await db
    .prepare(`SELECT DISTINCT workspace_id FROM webhook_deliveries WHERE ${OVERDUE} LIMIT ${REDELIVERIES_PER_SWEEP}`)
    .bind(now, now - stale)
    .all<{ workspace_id: number }>();
  const resident = await residentWorkspaces(
    env,
    shard,
    late.results.map((row) => row.workspace_id),
  );
  if (resident.length === 0) return;
  const overdue = await db
    .prepare(
      `UPDATE webhook_deliveries SET next_attempt_at = ?1, updated_at = ?1
       WHERE id IN (
         SELECT id FROM (
           SELECT id, row_number() OVER (PARTITION BY workspace_id ORDER BY next_attempt_at, id) AS n
           FROM webhook_deliveries
           WHERE ${OVERDUE} AND workspace_id IN (SELECT value FROM json_each(?3))
         ) WHERE n <= ${REDELIVERIES_PER_WORKSPACE} LIMIT ${REDELIVERIES_PER_SWEEP})
       RETURNING id, workspace_id`,
    )
    .bind(now, now - stale, JSON.stringify(resident))
    .all<{ id: number; workspace_id: number }>();
  if (overdue.results.length > 0) {
    console.log(
      JSON.stringify({ level: "info", msg: "outbox sweep: re-sending deliveries whose queue messages were lost", shard, count: overdue.results.length }),
    );
  }
  await sendMessages(
    env,
    shard,
    overdue.results.map((row) => ({ id: row.id, workspaceId: row.workspace_id })),
  );
}
