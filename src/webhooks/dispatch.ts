import { and, eq, inArray, isNull, lt, sql } from "drizzle-orm";
import type { Env } from "../platform/context";
import { type Database, database } from "../platform/db";
import { events } from "../platform/schema";
import type { Sweep } from "../platform/sweeps";
import { webhookDeliveries, webhookEndpoints } from "./schema";

export type WebhookMessage = { deliveryId: number };

type EventRow = typeof events.$inferSelect;
type EndpointRow = typeof webhookEndpoints.$inferSelect;

/** The endpoints an event goes to: subscribers of its type (or "*"); a test event only to its endpoint. */
function recipients(event: EventRow, endpoints: EndpointRow[]): EndpointRow[] {
  if (event.type === "webhook.test") {
    const target = (JSON.parse(event.data) as { webhook_id?: number }).webhook_id;
    return endpoints.filter((endpoint) => endpoint.id === target);
  }
  return endpoints.filter((endpoint) => endpoint.events.includes("*") || endpoint.events.includes(event.type));
}

const ROWS_PER_INSERT = 10; // 9 bound values a row, D1 allows 100 per statement
const MESSAGES_PER_SEND = 100;

/**
 * Moves a workspace's new outbox events to the queue: claims them (one conditional UPDATE, so two
 * dispatchers never take the same event), writes one delivery row per (event, endpoint) and sends one
 * message per delivery. If sending fails the claim is released and the sweep tries again.
 */
export async function dispatchEvents(env: Env, workspaceId: number, now = Date.now()): Promise<number> {
  const db = database(env.DB);
  const claimed = await db
    .update(events)
    .set({ enqueuedAt: now })
    .where(and(eq(events.workspaceId, workspaceId), isNull(events.enqueuedAt)))
    .returning();
  if (claimed.length === 0) return 0;
  try {
    const endpoints = await db
      .select()
      .from(webhookEndpoints)
      .where(and(eq(webhookEndpoints.workspaceId, workspaceId), eq(webhookEndpoints.enabled, true)));
    const rows = claimed.flatMap((event) =>
      recipients(event, endpoints).map((endpoint) => ({
        workspaceId,
        endpointId: endpoint.id,
        eventId: event.id,
        eventType: event.type,
        status: "pending" as const,
        nextAttemptAt: now,
        createdAt: now,
        updatedAt: now,
      })),
    );
    await enqueueDeliveries(db, env, rows);
    return rows.length;
  } catch (error) {
    await db
      .update(events)
      .set({ enqueuedAt: null })
      .where(inArray(events.id, claimed.map((event) => event.id)))
      .run();
    throw error;
  }
}

async function enqueueDeliveries(db: Database, env: Env, rows: (typeof webhookDeliveries.$inferInsert)[]): Promise<void> {
  if (rows.length === 0) return;
  const inserts = [];
  for (let i = 0; i < rows.length; i += ROWS_PER_INSERT) {
    inserts.push(
      db
        .insert(webhookDeliveries)
        .values(rows.slice(i, i + ROWS_PER_INSERT))
        .onConflictDoUpdate({ target: [webhookDeliveries.endpointId, webhookDeliveries.eventId], set: { updatedAt: sql`${webhookDeliveries.updatedAt}` } })
        .returning({ id: webhookDeliveries.id, status: webhookDeliveries.status }),
    );
  }
  const results = await db.batch(inserts as [(typeof inserts)[0], ...typeof inserts]);
  // A delivery that already exists and is settled (a re-dispatch after a partial failure) is not sent again.
  const pending = results.flat().filter((row) => row.status === "pending");
  await sendMessages(env, pending.map((row) => row.id));
}

export async function sendMessages(env: Env, deliveryIds: number[]): Promise<void> {
  for (let i = 0; i < deliveryIds.length; i += MESSAGES_PER_SEND) {
    await env.WEBHOOKS_QUEUE.sendBatch(deliveryIds.slice(i, i + MESSAGES_PER_SEND).map((deliveryId) => ({ body: { deliveryId } })));
  }
}

/** How long after creation an outbox event is presumed missed by its request's own dispatch. */
const OUTBOX_GRACE_MS = 30_000;
/** A pending delivery whose attempt time passed this long ago lost its queue message: send it again. */
const STALE_DELIVERY_MS = 10 * 60_000;

/** Cron: dispatch events that were never enqueued, and re-send deliveries whose messages were lost. */
export const sweepOutbox: Sweep = async (env, now) => {
  const db = database(env.DB);
  const stuck = await db
    .selectDistinct({ workspaceId: events.workspaceId })
    .from(events)
    .where(and(isNull(events.enqueuedAt), lt(events.createdAt, now - OUTBOX_GRACE_MS)))
    .limit(100);
  for (const { workspaceId } of stuck) await dispatchEvents(env, workspaceId, now);

  const stale = await db
    .select({ id: webhookDeliveries.id })
    .from(webhookDeliveries)
    .where(and(eq(webhookDeliveries.status, "pending"), lt(webhookDeliveries.nextAttemptAt, now - STALE_DELIVERY_MS)))
    .limit(1000);
  if (stale.length > 0) {
    await db
      .update(webhookDeliveries)
      .set({ nextAttemptAt: now, updatedAt: now })
      .where(inArray(webhookDeliveries.id, stale.map((row) => row.id)))
      .run();
    await sendMessages(env, stale.map((row) => row.id));
  }
};
