import { sql } from "drizzle-orm";
import { index, integer, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { timestamps, workspaces } from "../../platform/schema";
import { employees } from "../hrm/schema";

/** A day's attendance of one employee: in at clock_in, out at clock_out (open until then). */
export const attendance = sqliteTable(
  "attendance",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    workspaceId: integer("workspace_id")
      .notNull()
      .references(() => workspaces.id),
    employeeId: integer("employee_id")
      .notNull()
      .references(() => employees.id),
    date: text("date").notNull(),
    /** HH:MM (UTC). */
    clockIn: text("clock_in").notNull(),
    clockOut: text("clock_out"),
    note: text("note"),
    workedMinutes: integer("worked_minutes"),
    lateMinutes: integer("late_minutes").notNull().default(0),
    ...timestamps,
  },
  (table) => [
    // One open record per employee, also under concurrent clock-ins.
    uniqueIndex("attendance_workspace_employee_open_unique").on(table.workspaceId, table.employeeId).where(sql`clock_out IS NULL`),
    index("attendance_workspace_id_idx").on(table.workspaceId, table.id),
    index("attendance_workspace_updated_idx").on(table.workspaceId, table.updatedAt, table.id),
    index("attendance_workspace_created_idx").on(table.workspaceId, table.createdAt, table.id),
    index("attendance_workspace_employee_date_idx").on(table.workspaceId, table.employeeId, table.date),
    index("attendance_workspace_date_idx").on(table.workspaceId, table.date, table.id),
  ],
);

/** The workspace's working day: arrivals after `workday_start` are late. */
export const attendanceSettings = sqliteTable("attendance_settings", {
  workspaceId: integer("workspace_id").primaryKey(),
  workdayStart: text("workday_start").notNull().default("09:00"),
  updatedAt: integer("updated_at").notNull(),
});
