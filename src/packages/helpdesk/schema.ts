import { index, integer, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { timestamps, workspaces } from "../../platform/schema";
import { contacts } from "../sales/schema";

export const TICKET_PRIORITIES = ["low", "medium", "high", "urgent"] as const;
export const TICKET_STATUSES = ["open", "pending", "resolved", "closed"] as const;
export type TicketPriority = (typeof TICKET_PRIORITIES)[number];
export type TicketStatus = (typeof TICKET_STATUSES)[number];

/** A customer's request, from an e-mail to the support address or from the API and pages. */
export const tickets = sqliteTable(
  "tickets",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    workspaceId: integer("workspace_id")
      .notNull()
      .references(() => workspaces.id),
    /** TKT-000123: the tag replies carry in their subject. */
    number: text("number").notNull(),
    subject: text("subject").notNull(),
    /** The request itself: the opening e-mail's text (sanitised) or what the API was given. */
    body: text("body"),
    contactId: integer("contact_id").references(() => contacts.id, { onDelete: "set null" }),
    /** The requester's address: public replies go there. */
    email: text("email").notNull(),
    priority: text("priority", { enum: TICKET_PRIORITIES }).notNull().default("medium"),
    status: text("status", { enum: TICKET_STATUSES }).notNull().default("open"),
    /** A user of the workspace (users live in the directory database: no foreign key). */
    assigneeUserId: integer("assignee_user_id"),
    source: text("source", { enum: ["email", "api"] })
      .notNull()
      .default("api"),
    /** The SLA: created_at + the priority's first-response time; when the first public reply went out. */
    firstResponseDueAt: integer("first_response_due_at").notNull(),
    firstRespondedAt: integer("first_responded_at"),
    resolvedAt: integer("resolved_at"),
    /** The Message-ID of the e-mail that opened it (replies thread under it). */
    messageId: text("message_id"),
    ...timestamps,
  },
  (table) => [
    uniqueIndex("tickets_workspace_number_unique").on(table.workspaceId, table.number),
    // One ticket per inbound message, even when Email Routing delivers it twice.
    uniqueIndex("tickets_workspace_message_unique").on(table.workspaceId, table.messageId),
    index("tickets_workspace_id_idx").on(table.workspaceId, table.id),
    index("tickets_workspace_updated_idx").on(table.workspaceId, table.updatedAt, table.id),
    index("tickets_workspace_created_idx").on(table.workspaceId, table.createdAt, table.id),
    index("tickets_workspace_status_idx").on(table.workspaceId, table.status, table.priority, table.id),
    index("tickets_workspace_priority_idx").on(table.workspaceId, table.priority, table.id),
    index("tickets_workspace_assignee_idx").on(table.workspaceId, table.assigneeUserId, table.id),
    index("tickets_workspace_contact_idx").on(table.workspaceId, table.contactId, table.id),
    // SLA breaches: open tickets not answered by their due time.
    index("tickets_workspace_sla_idx").on(table.workspaceId, table.firstRespondedAt, table.firstResponseDueAt),
  ],
);

/** The thread of a ticket: the requester's e-mails, agents' public replies and internal notes. */
export const ticketReplies = sqliteTable(
  "ticket_replies",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    workspaceId: integer("workspace_id")
      .notNull()
      .references(() => workspaces.id),
    ticketId: integer("ticket_id")
      .notNull()
      .references(() => tickets.id, { onDelete: "cascade" }),
    /** Plain text (an HTML e-mail is stored as its sanitised text). */
    body: text("body").notNull(),
    /** An internal note: never e-mailed, never shown to the requester. */
    internal: integer("internal", { mode: "boolean" }).notNull().default(false),
    /** requester (an inbound e-mail) or agent (a user of the workspace). */
    author: text("author", { enum: ["requester", "agent"] }).notNull(),
    authorUserId: integer("author_user_id"),
    fromEmail: text("from_email"),
    /** The e-mail's Message-ID (inbound, or the one our reply was sent with), for threading. */
    messageId: text("message_id"),
    ...timestamps,
  },
  (table) => [
    index("ticket_replies_workspace_id_idx").on(table.workspaceId, table.id),
    index("ticket_replies_workspace_updated_idx").on(table.workspaceId, table.updatedAt, table.id),
    index("ticket_replies_workspace_created_idx").on(table.workspaceId, table.createdAt, table.id),
    index("ticket_replies_workspace_ticket_idx").on(table.workspaceId, table.ticketId, table.id),
    // One reply per inbound message; our own replies' ids find the ticket an answer refers to (In-Reply-To).
    uniqueIndex("ticket_replies_workspace_message_unique").on(table.workspaceId, table.messageId),
  ],
);

/** The last ticket number of each workspace (TKT-000001…). */
export const ticketCounters = sqliteTable("ticket_counters", {
  workspaceId: integer("workspace_id").primaryKey(),
  last: integer("last").notNull(),
});
