import { index, integer, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { timestamps, workspaces } from "../../platform/schema";

export const contacts = sqliteTable(
  "contacts",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    workspaceId: integer("workspace_id").notNull().references(() => workspaces.id),
    name: text("name").notNull(),
    email: text("email").notNull(),
    phone: text("phone"),
    company: text("company"),
    ...timestamps,
  },
  (table) => [
    uniqueIndex("contacts_workspace_email_unique").on(table.workspaceId, table.email),
    index("contacts_workspace_id_idx").on(table.workspaceId, table.id),
    index("contacts_workspace_name_idx").on(table.workspaceId, table.name, table.id),
    index("contacts_workspace_created_idx").on(table.workspaceId, table.createdAt, table.id),
    index("contacts_workspace_company_idx").on(table.workspaceId, table.company, table.id),
  ],
);
