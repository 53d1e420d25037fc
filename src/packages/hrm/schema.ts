import { index, integer, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { timestamps, workspaces } from "../../platform/schema";

export const EMPLOYEE_STATUSES = ["active", "inactive", "left"] as const;

export const employees = sqliteTable(
  "employees",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    workspaceId: integer("workspace_id")
      .notNull()
      .references(() => workspaces.id),
    name: text("name").notNull(),
    email: text("email").notNull(),
    phone: text("phone"),
    department: text("department"),
    designation: text("designation"),
    branch: text("branch"),
    status: text("status", { enum: EMPLOYEE_STATUSES }).notNull().default("active"),
    dateOfJoining: text("date_of_joining").notNull(),
    ...timestamps,
  },
  (table) => [
    uniqueIndex("employees_workspace_email_unique").on(table.workspaceId, table.email),
    index("employees_workspace_id_idx").on(table.workspaceId, table.id),
    index("employees_workspace_updated_idx").on(table.workspaceId, table.updatedAt, table.id),
    index("employees_workspace_name_idx").on(table.workspaceId, table.name, table.id),
    index("employees_workspace_joined_idx").on(table.workspaceId, table.dateOfJoining, table.id),
    index("employees_workspace_department_idx").on(table.workspaceId, table.department, table.id),
    index("employees_workspace_designation_idx").on(table.workspaceId, table.designation, table.id),
    index("employees_workspace_branch_idx").on(table.workspaceId, table.branch, table.id),
    index("employees_workspace_status_idx").on(table.workspaceId, table.status, table.id),
    // Dashboard aggregate: active employees by department.
    index("employees_workspace_status_department_idx").on(table.workspaceId, table.status, table.department),
  ],
);
