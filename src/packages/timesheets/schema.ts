import { index, integer, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { timestamps, workspaces } from "../../platform/schema";
import { employees } from "../hrm/schema";
import { projects, tasks } from "../taskly/schema";

export const timeEntries = sqliteTable(
  "time_entries",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    workspaceId: integer("workspace_id")
      .notNull()
      .references(() => workspaces.id),
    employeeId: integer("employee_id")
      .notNull()
      .references(() => employees.id),
    taskId: integer("task_id")
      .notNull()
      .references(() => tasks.id),
    /** The task's project, kept with the entry so per-project sums need no join through tasks. */
    projectId: integer("project_id")
      .notNull()
      .references(() => projects.id),
    date: text("date").notNull(),
    minutes: integer("minutes").notNull(),
    billable: integer("billable", { mode: "boolean" }).notNull().default(true),
    note: text("note"),
    ...timestamps,
  },
  (table) => [
    index("time_entries_workspace_id_idx").on(table.workspaceId, table.id),
    index("time_entries_workspace_updated_idx").on(table.workspaceId, table.updatedAt, table.id),
    index("time_entries_workspace_date_idx").on(table.workspaceId, table.date, table.id),
    // The daily cap sums one employee's day through this index.
    index("time_entries_workspace_employee_day_idx").on(table.workspaceId, table.employeeId, table.date, table.minutes),
    index("time_entries_workspace_task_idx").on(table.workspaceId, table.taskId, table.id),
    // logged_minutes per project: covering (project, task, minutes).
    index("time_entries_workspace_project_idx").on(table.workspaceId, table.projectId, table.taskId, table.minutes),
  ],
);
