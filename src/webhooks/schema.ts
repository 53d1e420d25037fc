import { index, integer, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { events, timestamps, workspaces } from "../platform/schema";

export const webhookEndpoints = sqliteTable(
  "webhook_endpoints",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    workspaceId: integer("workspace_id")
      .notNull()
      .references(() => workspaces.id),
    url: text("url").notNull(),
    description: text("description"),
    /** JSON array of event types, or ["*"]. */
    events: text("events", { mode: "json" }).$type<string[]>().notNull(),
    enabled: integer("enabled", { mode: "boolean" }).notNull().default(true),
    /** Why the platform disabled it ("gone": answered 410; "failing": 5 days of failures). */
    disabledReason: text("disabled_reason"),
    /** The signing secret, encrypted at rest (AES-GCM). */
    secret: text("secret").notNull(),
    /** The secret before the last rotation; it co-signs until `previous_secret_expires_at`. */
    previousSecret: text("previous_secret"),
    previousSecretExpiresAt: integer("previous_secret_expires_at"),
    /** When the current run of failed attempts began; null after any success. */
    failingSince: integer("failing_since"),
    ...timestamps,
  },
  (table) => [index("webhook_endpoints_workspace_idx").on(table.workspaceId, table.enabled, table.id)],
);

export const DELIVERY_STATUSES = ["pending", "succeeded", "failed"] as const;

/** One row per (event, endpoint): the delivery log, and the guard against delivering twice. */
export const webhookDeliveries = sqliteTable(
  "webhook_deliveries",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    workspaceId: integer("workspace_id")
      .notNull()
      .references(() => workspaces.id),
    endpointId: integer("endpoint_id")
      .notNull()
      .references(() => webhookEndpoints.id, { onDelete: "cascade" }),
    eventId: text("event_id")
      .notNull()
      .references(() => events.id),
    eventType: text("event_type").notNull(),
    attempt: integer("attempt").notNull().default(0),
    status: text("status", { enum: DELIVERY_STATUSES }).notNull().default("pending"),
    responseStatus: integer("response_status"),
    durationMs: integer("duration_ms"),
    lastError: text("last_error"),
    /** The first 2 KiB of the last response's body (what the receiver said), as UTF-8 text. */
    responseBody: text("response_body"),
    nextAttemptAt: integer("next_attempt_at"),
    /** An attempt in flight holds the row until then, so a duplicate queue message cannot POST again. */
    lockedUntil: integer("locked_until"),
    ...timestamps,
  },
  (table) => [
    uniqueIndex("webhook_deliveries_endpoint_event_unique").on(table.endpointId, table.eventId),
    index("webhook_deliveries_workspace_endpoint_idx").on(table.workspaceId, table.endpointId, table.id),
    index("webhook_deliveries_pending_idx").on(table.status, table.nextAttemptAt),
  ],
);
