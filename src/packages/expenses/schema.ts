import { index, integer, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { timestamps, workspaces } from "../../platform/schema";
import { employees } from "../hrm/schema";
import { projects } from "../taskly/schema";

/** Who the business buys from. */
export const vendors = sqliteTable(
  "vendors",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    workspaceId: integer("workspace_id")
      .notNull()
      .references(() => workspaces.id),
    name: text("name").notNull(),
    email: text("email"),
    phone: text("phone"),
    taxId: text("tax_id"),
    currency: text("currency"),
    ...timestamps,
  },
  (table) => [
    index("vendors_workspace_id_idx").on(table.workspaceId, table.id),
    index("vendors_workspace_updated_idx").on(table.workspaceId, table.updatedAt, table.id),
    index("vendors_workspace_name_idx").on(table.workspaceId, table.name, table.id),
    index("vendors_workspace_created_idx").on(table.workspaceId, table.createdAt, table.id),
  ],
);

export const EXPENSE_STATUSES = ["submitted", "approved", "rejected", "reimbursed"] as const;
export type ExpenseStatus = (typeof EXPENSE_STATUSES)[number];

/** Money spent: submitted by anyone, approved or rejected by an admin, reimbursed after approval. */
export const expenses = sqliteTable(
  "expenses",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    workspaceId: integer("workspace_id")
      .notNull()
      .references(() => workspaces.id),
    vendorId: integer("vendor_id").references(() => vendors.id, { onDelete: "set null" }),
    category: text("category").notNull(),
    description: text("description"),
    /** Minor units of `currency`. */
    amount: integer("amount").notNull(),
    currency: text("currency").notNull(),
    date: text("date").notNull(),
    projectId: integer("project_id").references(() => projects.id, { onDelete: "set null" }),
    billable: integer("billable", { mode: "boolean" }).notNull().default(false),
    employeeId: integer("employee_id").references(() => employees.id, { onDelete: "set null" }),
    status: text("status", { enum: EXPENSE_STATUSES }).notNull().default("submitted"),
    /** The receipt in R2 (FILES): its key (workspace and expense), content type by its bytes, size and file name. */
    receiptKey: text("receipt_key"),
    receiptContentType: text("receipt_content_type"),
    receiptSize: integer("receipt_size"),
    receiptName: text("receipt_name"),
    receiptUploadedAt: integer("receipt_uploaded_at"),
    ...timestamps,
  },
  (table) => [
    index("expenses_workspace_id_idx").on(table.workspaceId, table.id),
    index("expenses_workspace_updated_idx").on(table.workspaceId, table.updatedAt, table.id),
    index("expenses_workspace_created_idx").on(table.workspaceId, table.createdAt, table.id),
    index("expenses_workspace_date_idx").on(table.workspaceId, table.date, table.id),
    index("expenses_workspace_amount_idx").on(table.workspaceId, table.amount, table.id),
    index("expenses_workspace_status_idx").on(table.workspaceId, table.status, table.id),
    index("expenses_workspace_category_idx").on(table.workspaceId, table.category, table.date),
    index("expenses_workspace_vendor_idx").on(table.workspaceId, table.vendorId, table.id),
    index("expenses_workspace_project_idx").on(table.workspaceId, table.projectId, table.id),
    index("expenses_workspace_employee_idx").on(table.workspaceId, table.employeeId, table.id),
    // Widgets: approved spend in a period by category and currency.
    index("expenses_workspace_status_date_idx").on(table.workspaceId, table.status, table.date, table.category, table.currency, table.amount),
  ],
);
