import { index, integer, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { timestamps, workspaces } from "../../platform/schema";
import { customers } from "../account/schema";

export const contacts = sqliteTable(
  "contacts",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    workspaceId: integer("workspace_id")
      .notNull()
      .references(() => workspaces.id),
    name: text("name").notNull(),
    email: text("email").notNull(),
    phone: text("phone"),
    company: text("company"),
    ...timestamps,
  },
  (table) => [
    uniqueIndex("contacts_workspace_email_unique").on(table.workspaceId, table.email),
    index("contacts_workspace_id_idx").on(table.workspaceId, table.id),
    index("contacts_workspace_updated_idx").on(table.workspaceId, table.updatedAt, table.id),
    index("contacts_workspace_name_idx").on(table.workspaceId, table.name, table.id),
    index("contacts_workspace_created_idx").on(table.workspaceId, table.createdAt, table.id),
    index("contacts_workspace_company_idx").on(table.workspaceId, table.company, table.id),
  ],
);

export const LEAD_STATUSES = ["new", "contacted", "qualified", "unqualified", "converted"] as const;

export const leads = sqliteTable(
  "leads",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    workspaceId: integer("workspace_id")
      .notNull()
      .references(() => workspaces.id),
    name: text("name").notNull(),
    email: text("email").notNull(),
    phone: text("phone"),
    company: text("company"),
    source: text("source"),
    status: text("status", { enum: LEAD_STATUSES }).notNull().default("new"),
    value: integer("value"),
    currency: text("currency").notNull(),
    ...timestamps,
  },
  (table) => [
    index("leads_workspace_id_idx").on(table.workspaceId, table.id),
    index("leads_workspace_updated_idx").on(table.workspaceId, table.updatedAt, table.id),
    index("leads_workspace_name_idx").on(table.workspaceId, table.name, table.id),
    index("leads_workspace_created_idx").on(table.workspaceId, table.createdAt, table.id),
    index("leads_workspace_status_idx").on(table.workspaceId, table.status, table.id),
    index("leads_workspace_source_idx").on(table.workspaceId, table.source, table.id),
    // Dashboard aggregate: leads created in a period by source.
    index("leads_workspace_created_source_idx").on(table.workspaceId, table.createdAt, table.source),
  ],
);

export const OPEN_STAGES = ["initial_contact", "qualification", "meeting", "proposal", "negotiation"] as const;
export const DEAL_STAGES = [...OPEN_STAGES, "won", "lost"] as const;
export const DEAL_STATUSES = ["open", "won", "lost"] as const;

export const deals = sqliteTable(
  "deals",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    workspaceId: integer("workspace_id")
      .notNull()
      .references(() => workspaces.id),
    name: text("name").notNull(),
    value: integer("value").notNull().default(0),
    currency: text("currency").notNull(),
    stage: text("stage", { enum: DEAL_STAGES }).notNull().default("initial_contact"),
    /** Derived from stage (won, lost, otherwise open); stored so it can be filtered through an index. */
    status: text("status", { enum: DEAL_STATUSES }).notNull().default("open"),
    contactId: integer("contact_id").references(() => contacts.id, { onDelete: "set null" }),
    customerId: integer("customer_id").references(() => customers.id, { onDelete: "set null" }),
    expectedCloseDate: text("expected_close_date"),
    lostReason: text("lost_reason"),
    closedAt: integer("closed_at"),
    ...timestamps,
  },
  (table) => [
    index("deals_workspace_id_idx").on(table.workspaceId, table.id),
    index("deals_workspace_updated_idx").on(table.workspaceId, table.updatedAt, table.id),
    index("deals_workspace_value_idx").on(table.workspaceId, table.value, table.id),
    index("deals_workspace_created_idx").on(table.workspaceId, table.createdAt, table.id),
    index("deals_workspace_stage_idx").on(table.workspaceId, table.stage, table.id),
    index("deals_workspace_status_idx").on(table.workspaceId, table.status, table.id),
    // Dashboard aggregates: deals closed in a period (won value, win rate) and the open pipeline by stage.
    index("deals_workspace_closed_idx").on(table.workspaceId, table.closedAt, table.status, table.currency, table.value),
    index("deals_workspace_pipeline_idx").on(table.workspaceId, table.status, table.stage, table.currency, table.value),
    index("deals_contact_idx").on(table.contactId),
    index("deals_customer_idx").on(table.customerId),
  ],
);
