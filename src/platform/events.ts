import { sql } from "drizzle-orm";
import { base62, randomBytes } from "./crypto";
import type { Tenant } from "./db";
import { events } from "./schema";

export const EVENT_TYPES = [
  "invoice.created",
  "payment.received",
  "subscription.updated",
  "employee.onboarded",
  "deal.stage_changed",
  "task.completed",
  "webhook.test",
] as const;
export type EventType = (typeof EVENT_TYPES)[number];

export function newEventId(): string {
  return `evt_${base62(randomBytes(16))}`;
}

/**
 * The outbox row for an event, to put in the same batch as the change, right after the statement that
 * made it. `idFromLastInsert`: that statement was the resource's INSERT; `data.id` is its rowid.
 * `onlyIfChanged`: the event is written only if that statement changed a row (conditional updates).
 */
export function recordEvent(
  tenant: Tenant,
  event: { type: EventType; data: object; previousAttributes?: object; idFromLastInsert?: boolean; onlyIfChanged?: boolean },
  now: number,
) {
  const json = JSON.stringify(event.data);
  const data = event.idFromLastInsert ? sql`json_set(${json}, '$.id', last_insert_rowid())` : sql`${json}`;
  const previous = event.previousAttributes ? JSON.stringify(event.previousAttributes) : null;
  const condition = event.onlyIfChanged ? sql`changes() > 0` : sql`1`;
  // INSERT … SELECT so the row can be conditional; the columns follow the table's order.
  return tenant.db
    .insert(events)
    .select(sql`SELECT ${newEventId()}, ${tenant.workspaceId}, ${event.type}, ${data}, ${previous}, ${now}, NULL WHERE ${condition}`);
}
