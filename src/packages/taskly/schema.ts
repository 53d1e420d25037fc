import { sql } from "drizzle-orm";
import { index, integer, primaryKey, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { timestamps, workspaces } from "../../platform/schema";
import { customers } from "../account/schema";
import { employees } from "../hrm/schema";

export const PROJECT_STATUSES = ["active", "on_hold", "completed"] as const;

export const projects = sqliteTable(
  "projects",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    workspaceId: integer("workspace_id")
      .notNull()
      .references(() => workspaces.id),
    name: text("name").notNull(),
    description: text("description"),
    status: text("status", { enum: PROJECT_STATUSES }).notNull().default("active"),
    customerId: integer("customer_id").references(() => customers.id, { onDelete: "set null" }),
    startDate: text("start_date"),
    endDate: text("end_date"),
    ...timestamps,
  },
  (table) => [
    index("projects_workspace_id_idx").on(table.workspaceId, table.id),
    index("projects_workspace_updated_idx").on(table.workspaceId, table.updatedAt, table.id),
    index("projects_workspace_name_idx").on(table.workspaceId, table.name, table.id),
    index("projects_workspace_created_idx").on(table.workspaceId, table.createdAt, table.id),
    index("projects_workspace_status_idx").on(table.workspaceId, table.status, table.id),
    index("projects_workspace_customer_idx").on(table.workspaceId, table.customerId, table.id),
    index("projects_customer_idx").on(table.customerId),
  ],
);

export const TASK_STATUSES = ["todo", "in_progress", "review", "done"] as const;
export const TASK_PRIORITIES = ["low", "medium", "high", "urgent"] as const;

export const tasks = sqliteTable(
  "tasks",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    workspaceId: integer("workspace_id")
      .notNull()
      .references(() => workspaces.id),
    projectId: integer("project_id")
      .notNull()
      .references(() => projects.id),
    title: text("title").notNull(),
    description: text("description"),
    status: text("status", { enum: TASK_STATUSES }).notNull().default("todo"),
    priority: text("priority", { enum: TASK_PRIORITIES }).notNull().default("medium"),
    assigneeId: integer("assignee_id").references(() => employees.id, { onDelete: "set null" }),
    dueDate: text("due_date"),
    completedAt: integer("completed_at"),
    deletedAt: integer("deleted_at"),
    ...timestamps,
  },
  (table) => [
    index("tasks_workspace_id_idx").on(table.workspaceId, table.id),
    index("tasks_workspace_updated_idx").on(table.workspaceId, table.updatedAt, table.id),
    index("tasks_workspace_created_idx").on(table.workspaceId, table.createdAt, table.id),
    index("tasks_workspace_due_idx").on(table.workspaceId, sql`coalesce(${table.dueDate}, '9999-12-31')`, table.id),
    // Covers the per-project task counts of GET /projects (live tasks by status).
    index("tasks_workspace_project_idx").on(table.workspaceId, table.projectId, table.deletedAt, table.status),
    index("tasks_workspace_status_idx").on(table.workspaceId, table.status, table.id),
    // Dashboard aggregates: live tasks by status and overdue, and tasks completed in a period.
    index("tasks_workspace_live_idx").on(table.workspaceId, table.deletedAt, table.status, table.dueDate),
    index("tasks_workspace_completed_idx").on(table.workspaceId, table.completedAt, table.deletedAt),
    index("tasks_workspace_priority_idx").on(table.workspaceId, table.priority, table.id),
    index("tasks_workspace_assignee_idx").on(table.workspaceId, table.assigneeId, table.id),
    index("tasks_assignee_idx").on(table.assigneeId),
  ],
);

/**
 * Live tasks per project and status, kept exact by triggers on tasks (migration 0009) in the same
 * transaction as every write, whatever its path: project task counts and the dashboard's task widgets
 * read a handful of rows here instead of counting tasks.
 */
export const taskCounts = sqliteTable(
  "task_counts",
  {
    workspaceId: integer("workspace_id").notNull(),
    projectId: integer("project_id").notNull(),
    status: text("status", { enum: TASK_STATUSES }).notNull(),
    tasks: integer("tasks").notNull(),
  },
  (table) => [primaryKey({ columns: [table.workspaceId, table.projectId, table.status] })],
);
