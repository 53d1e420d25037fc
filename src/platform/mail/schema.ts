import { index, integer, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { timestamps, workspaces } from "../schema";

export const MAIL_STATUSES = ["queued", "sent", "failed"] as const;
export type MailStatus = (typeof MAIL_STATUSES)[number];

/**
 * The mail outbox: a message is inserted in the same D1 batch as the change that sends it (an invoice
 * sent, a reminder due), then handed to the `mail` queue; the consumer renders it (its package's mailer),
 * sends it through the EMAIL binding and records every attempt. Nothing is sent inside a request.
 */
export const mailMessages = sqliteTable(
  "mail_messages",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    workspaceId: integer("workspace_id")
      .notNull()
      .references(() => workspaces.id),
    /** Which package mailer renders it ("invoice", "invoice_reminder"…), and the record it is about. */
    kind: text("kind").notNull(),
    subjectId: integer("subject_id").notNull(),
    to: text("to").notNull(),
    /** Replies go to the person who sent it, not to the platform's sending address. */
    replyTo: text("reply_to"),
    /** The sender's display name (the workspace's name), beside MAIL_FROM. */
    fromName: text("from_name").notNull(),
    status: text("status", { enum: MAIL_STATUSES }).notNull().default("queued"),
    attempts: integer("attempts").notNull().default(0),
    lastError: text("last_error"),
    /** When the next attempt is due: the sweep re-enqueues a queued message long past it (a lost queue message). */
    nextAttemptAt: integer("next_attempt_at").notNull(),
    /** Set while a consumer is sending it, so a duplicate queue message never sends it twice. */
    leaseUntil: integer("lease_until"),
    sentAt: integer("sent_at"),
    ...timestamps,
  },
  (table) => [
    index("mail_messages_workspace_subject_idx").on(table.workspaceId, table.kind, table.subjectId, table.id),
    index("mail_messages_due_idx").on(table.status, table.nextAttemptAt),
  ],
);

/** Every attempt to send a message, with what the EMAIL binding answered. */
export const mailAttempts = sqliteTable(
  "mail_attempts",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    workspaceId: integer("workspace_id")
      .notNull()
      .references(() => workspaces.id),
    messageId: integer("message_id")
      .notNull()
      .references(() => mailMessages.id, { onDelete: "cascade" }),
    attempt: integer("attempt").notNull(),
    outcome: text("outcome", { enum: ["sent", "failed"] }).notNull(),
    error: text("error"),
    at: integer("at").notNull(),
  },
  (table) => [index("mail_attempts_workspace_message_idx").on(table.workspaceId, table.messageId, table.attempt)],
);
