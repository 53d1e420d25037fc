import { sql } from "drizzle-orm";
import { index, integer, primaryKey, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { timestamps, workspaces } from "../../platform/schema";

export const customers = sqliteTable(
  "customers",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    workspaceId: integer("workspace_id")
      .notNull()
      .references(() => workspaces.id),
    name: text("name").notNull(),
    email: text("email"),
    phone: text("phone"),
    billingName: text("billing_name"),
    billingEmail: text("billing_email"),
    billingAddressLine1: text("billing_address_line1"),
    billingAddressLine2: text("billing_address_line2"),
    billingCity: text("billing_city"),
    billingState: text("billing_state"),
    billingPostalCode: text("billing_postal_code"),
    billingCountry: text("billing_country"),
    taxId: text("tax_id"),
    currency: text("currency").notNull(),
    ...timestamps,
  },
  (table) => [
    index("customers_workspace_id_idx").on(table.workspaceId, table.id),
    index("customers_workspace_updated_idx").on(table.workspaceId, table.updatedAt, table.id),
    index("customers_workspace_name_idx").on(table.workspaceId, table.name, table.id),
    index("customers_workspace_created_idx").on(table.workspaceId, table.createdAt, table.id),
    index("customers_workspace_country_idx").on(table.workspaceId, table.billingCountry, table.id),
    index("customers_workspace_currency_idx").on(table.workspaceId, table.currency, table.id),
  ],
);

export const INVOICE_STATUSES = ["draft", "sent", "partially_paid", "paid", "void"] as const;
export type InvoiceStatus = (typeof INVOICE_STATUSES)[number];

/** A line as stored: the input plus the amounts computed from it. */
export type StoredLine = {
  /** The catalogue product the line was made from (products package), when it named one. */
  product_id?: number;
  description: string;
  quantity: number;
  unit_amount: number;
  tax_rate: number;
  amount: number;
  tax_amount: number;
};

export const invoices = sqliteTable(
  "invoices",
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
    dueDate: text("due_date"),
    items: text("items", { mode: "json" }).$type<StoredLine[]>().notNull(),
    notes: text("notes"),
    status: text("status", { enum: INVOICE_STATUSES }).notNull().default("draft"),
    subtotal: integer("subtotal").notNull(),
    taxTotal: integer("tax_total").notNull(),
    total: integer("total").notNull(),
    amountPaid: integer("amount_paid").notNull().default(0),
    sentAt: integer("sent_at"),
    sentTo: text("sent_to"),
    /** The public page's token (set when first sent; its hash is the directory's public link) and absolute URL. */
    publicToken: text("public_token"),
    publicUrl: text("public_url"),
    /** When the customer first opened the public page. */
    viewedAt: integer("viewed_at"),
    /** How many of the overdue reminders (3, 7, 14 days after due_date) have been sent: 0–3. */
    remindersSent: integer("reminders_sent").notNull().default(0),
    ...timestamps,
  },
  (table) => [
    uniqueIndex("invoices_workspace_number_unique").on(table.workspaceId, table.number),
    index("invoices_workspace_id_idx").on(table.workspaceId, table.id),
    index("invoices_workspace_updated_idx").on(table.workspaceId, table.updatedAt, table.id),
    index("invoices_workspace_customer_idx").on(table.workspaceId, table.customerId, table.status),
    index("invoices_workspace_status_idx").on(table.workspaceId, table.status, table.id),
    index("invoices_workspace_issue_idx").on(table.workspaceId, table.issueDate, table.id),
    index("invoices_workspace_due_idx").on(table.workspaceId, sql`coalesce(${table.dueDate}, '9999-12-31')`, table.id),
    index("invoices_workspace_total_idx").on(table.workspaceId, table.total, table.id),
    // Dashboard aggregates: what is out (outstanding, overdue) and invoices issued in a period by status.
    index("invoices_workspace_open_idx").on(table.workspaceId, table.status, table.currency, table.total, table.amountPaid, table.dueDate),
    index("invoices_workspace_issued_status_idx").on(table.workspaceId, table.issueDate, table.status),
    index("invoices_workspace_status_due_idx").on(table.workspaceId, table.status, table.dueDate),
    // The reminder sweep: unpaid sent invoices by due date, across workspaces.
    index("invoices_reminders_idx").on(table.status, table.dueDate, table.remindersSent),
  ],
);

export const PAYMENT_METHODS = ["card", "bank_transfer", "cash", "other"] as const;

export const payments = sqliteTable(
  "payments",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    workspaceId: integer("workspace_id")
      .notNull()
      .references(() => workspaces.id),
    invoiceId: integer("invoice_id")
      .notNull()
      .references(() => invoices.id),
    amount: integer("amount").notNull(),
    currency: text("currency").notNull(),
    method: text("method", { enum: PAYMENT_METHODS }).notNull(),
    processor: text("processor"),
    processorPaymentId: text("processor_payment_id"),
    paidAt: integer("paid_at").notNull(),
    ...timestamps,
  },
  (table) => [
    uniqueIndex("payments_workspace_processor_unique").on(table.workspaceId, table.processor, table.processorPaymentId),
    index("payments_workspace_id_idx").on(table.workspaceId, table.id),
    index("payments_workspace_updated_idx").on(table.workspaceId, table.updatedAt, table.id),
    index("payments_workspace_invoice_idx").on(table.workspaceId, table.invoiceId, table.id),
    index("payments_workspace_paid_idx").on(table.workspaceId, table.paidAt, table.id),
    // Dashboard aggregates: payments in a period per currency, and per customer through their invoice.
    index("payments_workspace_revenue_idx").on(table.workspaceId, table.paidAt, table.currency, table.amount, table.invoiceId),
  ],
);

/**
 * Payments per UTC day and currency (day = paid_at ÷ 86,400,000), kept exact by triggers on payments
 * (migration 0009): revenue for any day-aligned period reads at most a row per day and currency.
 */
export const paymentDays = sqliteTable(
  "payment_days",
  {
    workspaceId: integer("workspace_id").notNull(),
    day: integer("day").notNull(),
    currency: text("currency").notNull(),
    amount: integer("amount").notNull(),
    payments: integer("payments").notNull(),
  },
  (table) => [primaryKey({ columns: [table.workspaceId, table.day, table.currency] })],
);

/** Invoices and what is due on them per status and currency, kept exact by triggers on invoices (migration 0009). */
export const invoiceBalances = sqliteTable(
  "invoice_balances",
  {
    workspaceId: integer("workspace_id").notNull(),
    status: text("status", { enum: INVOICE_STATUSES }).notNull(),
    currency: text("currency").notNull(),
    invoices: integer("invoices").notNull(),
    due: integer("due").notNull(),
  },
  (table) => [primaryKey({ columns: [table.workspaceId, table.status, table.currency] })],
);

/** The last invoice number handed out per workspace: bumped in the same batch as each invoice INSERT. */
export const invoiceCounters = sqliteTable("invoice_counters", {
  workspaceId: integer("workspace_id").primaryKey(),
  last: integer("last").notNull(),
});

/** The workspace's card processor (Stripe): its keys sealed like every other secret, never shown again. */
export const paymentProcessors = sqliteTable("payment_processors", {
  workspaceId: integer("workspace_id")
    .primaryKey()
    .references(() => workspaces.id),
  provider: text("provider", { enum: ["stripe"] }).notNull(),
  secretKey: text("secret_key").notNull(),
  webhookSecret: text("webhook_secret").notNull(),
  ...timestamps,
});

/** The workspace's invoicing settings: the currency of customers and invoices that name none, and reminders. */
export const invoicingSettings = sqliteTable("invoicing_settings", {
  workspaceId: integer("workspace_id")
    .primaryKey()
    .references(() => workspaces.id),
  currency: text("currency").notNull(),
  invoiceReminders: integer("invoice_reminders", { mode: "boolean" }).notNull(),
  ...timestamps,
});
