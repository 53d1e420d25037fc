import { and, eq, isNull, sql } from "drizzle-orm";
import type { Env } from "../platform/context";
import type { IsolateState } from "../platform/isolate";
import { logError } from "../platform/log";
import type { Background, Sweep, WorkspaceOnShard } from "../platform/packages";
import { events } from "../platform/schema";
import { everyShard, residentWorkspaces, type Tenant, tenantOn, type Unscoped } from "../platform/tenancy";
import { webhookDeliveries, webhookEndpoints } from "./schema";

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

/** The next events of the workspace that were never fanned out, oldest first. */
const nextEvents = (tenant: Tenant) =>
  sql`SELECT ${events.id} FROM ${events} WHERE ${tenant.scope(events, isNull(events.enqueuedAt))} ORDER BY ${events.createdAt}, ${events.id} LIMIT ${EVENTS_PER_ROUND}`;

/**
 * One round of fan-out, atomically: in one D1 batch, a delivery row per (event, subscribed endpoint)
 * is inserted straight from the events joined to the endpoints (those that existed when the event
 * happened: an endpoint never receives older events), and the same events are claimed.
 * A crash after the batch leaves pending deliveries that the sweep re-sends; a crash before it leaves
 * unclaimed events that the sweep dispatches. Nothing is claimed without its deliveries.
 */
async function fanOutRound(tenant: Tenant, now: number): Promise<{ claimed: number; deliveryIds: number[] }> {
  const subscribed = sql`CASE WHEN ${events.type} = 'webhook.test'
      THEN json_extract(${events.data}, '$.webhook_id') = ${webhookEndpoints.id}
      ELSE EXISTS (SELECT 1 FROM json_each(${webhookEndpoints.events}) WHERE value IN ('*', ${events.type})) END`;
  const [inserted, claimed] = await tenant.batch([
    tenant.rows<{ id: number }>(
      sql`INSERT INTO ${webhookDeliveries} (workspace_id, endpoint_id, event_id, event_type, attempt, status, next_attempt_at, created_at, updated_at)
          SELECT ${events.workspaceId}, ${webhookEndpoints.id}, ${events.id}, ${events.type}, 0, 'pending', ${now}, ${now}, ${now}
          FROM ${events} JOIN ${webhookEndpoints}
            ON ${tenant.scope(webhookEndpoints, eq(webhookEndpoints.enabled, true), sql`${webhookEndpoints.createdAt} <= ${events.createdAt}`)}
          WHERE ${tenant.scope(events, sql`${events.id} IN (${nextEvents(tenant)})`, subscribed)}
          ON CONFLICT (endpoint_id, event_id) DO NOTHING
          RETURNING id`,
    ),
    tenant.update(events, { enqueuedAt: now }, sql`${events.id} IN (${nextEvents(tenant)})`).returning({ id: events.id }),
  ]);
  return { claimed: claimed.length, deliveryIds: inserted.map((row) => row.id) };
}

// Whether a workspace has an enabled endpoint, per isolate for a few seconds: most workspaces have none,
// and their writes then cost no fan-out batch after the response (the sweep claims their events).
const SUBSCRIBERS_TTL_MS = 10_000;
type Subscribers = Map<number, { any: boolean; at: number; shard: string }>;
const subscribersOf = (isolate: IsolateState): Subscribers => isolate.get("webhooks.subscribers", () => new Map());

/** Forgets what this isolate knows of a workspace's endpoints (after one is created, changed or deleted). */
export function forgetSubscribers(isolate: IsolateState, workspaceId: number): void {
  subscribersOf(isolate).delete(workspaceId);
}

async function hasEndpoints(tenant: Tenant, workspace: WorkspaceOnShard, isolate: IsolateState, now: number): Promise<boolean> {
  const subscribers = subscribersOf(isolate);
  const known = subscribers.get(workspace.id);
  if (known && known.shard === workspace.shard && now - known.at < SUBSCRIBERS_TTL_MS) return known.any;
  const [row] = await tenant.selectFrom({ any: sql<number>`1` }, webhookEndpoints, eq(webhookEndpoints.enabled, true)).limit(1);
  if (subscribers.size > 10_000) subscribers.clear();
  subscribers.set(workspace.id, { any: row !== undefined, at: now, shard: workspace.shard });
  return row !== undefined;
}

/**
 * After a request recorded events: fan them out at once when the workspace has endpoints. Without any
 * (as far as this isolate knew in the last 10 s), the cron sweep claims them within a minute or two.
 */
export async function dispatchAfterRequest(env: Env, workspace: WorkspaceOnShard, worker: Background, now = Date.now()): Promise<number> {
  const tenant = tenantOn(env, worker.registry, workspace);
  return (await hasEndpoints(tenant, workspace, worker.isolate, now)) ? dispatchEvents(env, worker, workspace, now) : 0;
}

/**
 * Moves a workspace's new outbox events to the queue: fan-out rounds of up to 100 events until none
 * are left (or `rounds` ran), then one message per new delivery. A failed send loses nothing: the
 * deliveries are pending in D1 and the sweep re-sends them.
 */
export async function dispatchEvents(env: Env, worker: Background, workspace: WorkspaceOnShard, now = Date.now(), rounds = 50): Promise<number> {
  let sent = 0;
  const tenant = tenantOn(env, worker.registry, workspace);
  for (let round = 0; round < rounds; round++) {
    const { claimed, deliveryIds } = await fanOutRound(tenant, now);
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
export const sweepOutbox: Sweep = {
  name: "webhook outbox",
  run: async (env, now, worker) => {
    await Promise.all(
      everyShard(env).map(({ name, data }) =>
        sweepShardOutbox(env, worker, name, data, now).catch((error: unknown) => logError("outbox sweep failed", error, { shard: name })),
      ),
    );
  },
};

/** The shard's outbox across its workspaces: which have waiting events or lost deliveries (system work). */
async function sweepShardOutbox(env: Env, worker: Background, shard: string, db: Unscoped, now: number): Promise<void> {
  const grace = seconds(env.OUTBOX_GRACE_SECONDS, 30) * 1000;
  const stale = seconds(env.REDELIVER_AFTER_SECONDS, 600) * 1000;

  const waiting = await db
    .selectFrom({ workspaceId: events.workspaceId }, events)
    .where(and(isNull(events.enqueuedAt), sql`${events.createdAt} < ${now - grace}`))
    .groupBy(events.workspaceId)
    .orderBy(sql`min(${events.createdAt})`)
    .limit(WORKSPACES_PER_SWEEP);
  for (const id of await residentWorkspaces(
    env,
    shard,
    waiting.map((row) => row.workspaceId),
  )) {
    await dispatchEvents(env, worker, { id, shard }, now, 1).catch((error: unknown) => logError("outbox sweep: dispatch failed", error, { workspace_id: id }));
  }

  const d = webhookDeliveries;
  const overdue = sql`${d.status} = 'pending' AND ${d.nextAttemptAt} < ${now - stale} AND (${d.lockedUntil} IS NULL OR ${d.lockedUntil} < ${now})`;
  const late = await db.rows<{ workspace_id: number }>(
    sql`SELECT DISTINCT ${d.workspaceId} AS workspace_id FROM ${d} WHERE ${overdue} LIMIT ${REDELIVERIES_PER_SWEEP}`,
  );
  const resident = await residentWorkspaces(
    env,
    shard,
    late.map((row) => row.workspace_id),
  );
  if (resident.length === 0) return;
  // Up to REDELIVERIES_PER_WORKSPACE of each resident workspace's overdue deliveries, oldest first.
  const resent = await db.rows<{ id: number; workspace_id: number }>(
    sql`UPDATE ${d} SET next_attempt_at = ${now}, updated_at = ${now}
        WHERE id IN (
          SELECT id FROM (
            SELECT ${d.id} AS id, row_number() OVER (PARTITION BY ${d.workspaceId} ORDER BY ${d.nextAttemptAt}, ${d.id}) AS n
            FROM ${d} WHERE ${overdue} AND ${d.workspaceId} IN (SELECT value FROM json_each(${JSON.stringify(resident)}))
          ) WHERE n <= ${REDELIVERIES_PER_WORKSPACE} LIMIT ${REDELIVERIES_PER_SWEEP})
        RETURNING id, workspace_id`,
  );
  if (resent.length > 0) {
    console.log(JSON.stringify({ level: "info", msg: "outbox sweep: re-sending deliveries whose queue messages were lost", shard, count: resent.length }));
  }
  await sendMessages(
    env,
    shard,
    resent.map((row) => ({ id: row.id, workspaceId: row.workspace_id })),
  );
}
