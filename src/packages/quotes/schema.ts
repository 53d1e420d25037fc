import { index, integer, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { timestamps, workspaces } from "../../platform/schema";
import { customers, invoices, type StoredLine } from "../account/schema";

export const QUOTE_STATUSES = ["draft", "sent", "accepted", "declined", "expired", "invoiced"] as const;
export type QuoteStatus = (typeof QUOTE_STATUSES)[number];

/** A proposal to a customer: lines as an invoice's; accepted, it becomes a draft invoice once. */
export const quotes = sqliteTable(
  "quotes",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    workspaceId: integer("workspace_id")
      .notNull()
      .references(() => workspaces.id),
    customerId: integer("customer_id")
      .notNull()
      .references(() => customers.id),
    number: text("number").notNull(),
    currency: text("currency").notNull(),
    issueDate: text("issue_date").notNull(),
    validUntil: text("valid_until"),
    items: text("items", { mode: "json" }).$type<StoredLine[]>().notNull(),
    notes: text("notes"),
    status: text("status", { enum: QUOTE_STATUSES }).notNull().default("draft"),
    subtotal: integer("subtotal").notNull(),
    taxTotal: integer("tax_total").notNull(),
    total: integer("total").notNull(),
    sentAt: integer("sent_at"),
    sentTo: text("sent_to"),
    /** The public page's token (set when first sent; its hash is the directory's public link) and absolute URL. */
    publicToken: text("public_token"),
    publicUrl: text("public_url"),
    viewedAt: integer("viewed_at"),
    /** When the customer (or a user for them) accepted or declined it. */
    decidedAt: integer("decided_at"),
    /** The draft invoice it became (set once, by POST /quotes/{id}/invoice). */
    invoiceId: integer("invoice_id").references(() => invoices.id, { onDelete: "set null" }),
    ...timestamps,
  },
  (table) => [
    uniqueIndex("quotes_workspace_number_unique").on(table.workspaceId, table.number),
    index("quotes_workspace_id_idx").on(table.workspaceId, table.id),
    index("quotes_workspace_updated_idx").on(table.workspaceId, table.updatedAt, table.id),
    index("quotes_workspace_created_idx").on(table.workspaceId, table.createdAt, table.id),
    index("quotes_workspace_customer_idx").on(table.workspaceId, table.customerId, table.id),
    index("quotes_workspace_status_idx").on(table.workspaceId, table.status, table.id),
    index("quotes_workspace_issue_idx").on(table.workspaceId, table.issueDate, table.id),
    index("quotes_workspace_total_idx").on(table.workspaceId, table.total, table.id),
    // The expiry sweep: sent quotes by validity, across workspaces.
    index("quotes_expiry_idx").on(table.status, table.validUntil),
  ],
);

/** The last quote number of each workspace (QUO-000001…), bumped in the batch that creates a quote. */
export const quoteCounters = sqliteTable("quote_counters", {
  workspaceId: integer("workspace_id").primaryKey(),
  last: integer("last").notNull(),
});
