import { index, integer, real, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { timestamps, workspaces } from "../../platform/schema";
import { employees } from "../hrm/schema";

/** Kinds of time off (annual leave, sick leave…) and how many days a year each employee has of it. */
export const leaveTypes = sqliteTable(
  "leave_types",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    workspaceId: integer("workspace_id")
      .notNull()
      .references(() => workspaces.id),
    name: text("name").notNull(),
    daysPerYear: real("days_per_year").notNull(),
    paid: integer("paid", { mode: "boolean" }).notNull().default(true),
    ...timestamps,
  },
  (table) => [
    index("leave_types_workspace_id_idx").on(table.workspaceId, table.id),
    index("leave_types_workspace_updated_idx").on(table.workspaceId, table.updatedAt, table.id),
    index("leave_types_workspace_name_idx").on(table.workspaceId, table.name, table.id),
    index("leave_types_workspace_created_idx").on(table.workspaceId, table.createdAt, table.id),
  ],
);

/** Public holidays: not working days, so never counted as leave. */
export const holidays = sqliteTable(
  "holidays",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    workspaceId: integer("workspace_id")
      .notNull()
      .references(() => workspaces.id),
    date: text("date").notNull(),
    name: text("name").notNull(),
    ...timestamps,
  },
  (table) => [
    uniqueIndex("holidays_workspace_date_unique").on(table.workspaceId, table.date),
    index("holidays_workspace_id_idx").on(table.workspaceId, table.id),
    index("holidays_workspace_updated_idx").on(table.workspaceId, table.updatedAt, table.id),
    index("holidays_workspace_created_idx").on(table.workspaceId, table.createdAt, table.id),
  ],
);

export const LEAVE_STATUSES = ["pending", "approved", "rejected", "cancelled"] as const;
export type LeaveStatus = (typeof LEAVE_STATUSES)[number];

/** A request for time off: its working days are counted when written (Mon–Fri, minus holidays). */
export const leaveRequests = sqliteTable(
  "leave_requests",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    workspaceId: integer("workspace_id")
      .notNull()
      .references(() => workspaces.id),
    employeeId: integer("employee_id")
      .notNull()
      .references(() => employees.id),
    leaveTypeId: integer("leave_type_id")
      .notNull()
      .references(() => leaveTypes.id),
    startDate: text("start_date").notNull(),
    endDate: text("end_date").notNull(),
    halfDay: integer("half_day", { mode: "boolean" }).notNull().default(false),
    reason: text("reason"),
    status: text("status", { enum: LEAVE_STATUSES }).notNull().default("pending"),
    /** Working days it takes (0.5 for a half day). */
    days: real("days").notNull(),
    decidedAt: integer("decided_at"),
    ...timestamps,
  },
  (table) => [
    index("leave_requests_workspace_id_idx").on(table.workspaceId, table.id),
    index("leave_requests_workspace_updated_idx").on(table.workspaceId, table.updatedAt, table.id),
    index("leave_requests_workspace_created_idx").on(table.workspaceId, table.createdAt, table.id),
    index("leave_requests_workspace_employee_idx").on(table.workspaceId, table.employeeId, table.startDate),
    index("leave_requests_workspace_type_idx").on(table.workspaceId, table.leaveTypeId, table.id),
    index("leave_requests_workspace_status_idx").on(table.workspaceId, table.status, table.startDate),
    index("leave_requests_workspace_start_idx").on(table.workspaceId, table.startDate, table.id),
  ],
);
