import { z } from "@hono/zod-openapi";
import { eq, isNull, ne, sql } from "drizzle-orm";
import { alias } from "drizzle-orm/sqlite-core";
import { fields } from "../../platform/fields";
import type { ResourceDefinition, Row, RowCheck } from "../../platform/resource/definition";
import { anyOf, booleanFilter, dateBound, integerValue } from "../../platform/resource/filters";
import { qualified as q, sameWorkspace, type Tenant, tableAs } from "../../platform/tenancy";
import { isoTimestamp } from "../../platform/time";
import { employees } from "../hrm/schema";
import { projects, tasks } from "../taskly/schema";
import { timeEntries } from "./schema";

/** The most minutes one employee may log on one day, across all entries. */
export const DAILY_CAP_MINUTES = 1440;

const TimeEntry = z
  .object({
    id: z.number().int(),
    employee_id: z.number().int(),
    task_id: z.number().int(),
    project_id: z.number().int().openapi({ description: "The task's project (read-only)" }),
    date: z.string().openapi({ example: "2026-11-20" }),
    minutes: z.number().int(),
    billable: z.boolean(),
    note: z.string().nullable(),
    created_at: fields.timestamp(),
    updated_at: fields.timestamp(),
  })
  .openapi("TimeEntry");

const writable = {
  employee_id: fields.id(),
  task_id: fields.id(),
  date: fields.date(),
  minutes: z.number().int("must be a whole number of minutes").min(1, "must be at least 1").max(DAILY_CAP_MINUTES, `must be at most ${DAILY_CAP_MINUTES}`),
  billable: z.boolean(),
  note: fields.text(1000).nullable(),
};
const CreateTimeEntry = z.strictObject(writable).partial().required({ employee_id: true, task_id: true, date: true, minutes: true }).openapi("CreateTimeEntry");
const UpdateTimeEntry = z.strictObject(writable).partial().openapi("UpdateTimeEntry");

function toTimeEntry(row: Row<typeof timeEntries>): z.infer<typeof TimeEntry> {
  return {
    id: row.id,
    employee_id: row.employeeId,
    task_id: row.taskId,
    project_id: row.projectId,
    date: row.date,
    minutes: row.minutes,
    billable: row.billable,
    note: row.note,
    created_at: isoTimestamp(row.createdAt),
    updated_at: isoTimestamp(row.updatedAt),
  };
}

/** The project of a task, as an SQL value (the task reference is checked by its own guard). */
const projectOfTask = (tenant: Tenant, taskId: number) =>
  sql`(SELECT ${q(tasks.projectId)} FROM ${tasks} WHERE ${tenant.scope(tasks, sql`${q(tasks.id)} = ${taskId}`)})`;

/**
 * At most 1,440 minutes per employee per day, enforced by the statement that writes (a guard before
 * an insert, a condition of an update), so concurrent entries cannot pass it together.
 */
const dailyCap: RowCheck = {
  onCreate: (values, tenant) =>
    sql`(SELECT coalesce(sum(${q(timeEntries.minutes)}), 0) FROM ${timeEntries} WHERE ${tenant.scope(timeEntries, sql`${q(timeEntries.employeeId)} = ${values.employeeId as number}`, sql`${q(timeEntries.date)} = ${values.date as string}`)}) + ${values.minutes as number} <= ${DAILY_CAP_MINUTES}`,
  onUpdate: (values, tenant) => {
    if (values.employeeId === undefined && values.date === undefined && values.minutes === undefined) return undefined;
    const employee = values.employeeId !== undefined ? sql`${values.employeeId as number}` : q(timeEntries.employeeId);
    const date = values.date !== undefined ? sql`${values.date as string}` : q(timeEntries.date);
    const minutes = values.minutes !== undefined ? sql`${values.minutes as number}` : q(timeEntries.minutes);
    const other = alias(timeEntries, "other");
    return sql`(SELECT coalesce(sum(${other.minutes}), 0) FROM ${tableAs(other)} WHERE ${tenant.scope(other, sql`${other.employeeId} = ${employee}`, sql`${other.date} = ${date}`, sql`${other.id} <> ${q(timeEntries.id)}`)}) + ${minutes} <= ${DAILY_CAP_MINUTES}`;
  },
  async explain(tenant, row, id) {
    const logged = await tenant
      .selectFrom(
        { total: sql<number>`coalesce(sum(${timeEntries.minutes}), 0)`.mapWith(Number) },
        timeEntries,
        eq(timeEntries.employeeId, row.employeeId as number),
        eq(timeEntries.date, row.date as string),
        id === null ? undefined : ne(timeEntries.id, id),
      )
      .get();
    const total = (logged?.total ?? 0) + (row.minutes as number);
    return total > DAILY_CAP_MINUTES
      ? [
          {
            path: "minutes",
            message: `would bring employee ${row.employeeId as number}'s ${row.date as string} to ${total} minutes; at most ${DAILY_CAP_MINUTES} a day (${logged?.total ?? 0} already logged)`,
          },
        ]
      : [];
  },
};

export const timeEntryResource: ResourceDefinition<
  typeof timeEntries,
  z.infer<typeof CreateTimeEntry>,
  z.infer<typeof UpdateTimeEntry>,
  z.infer<typeof TimeEntry>
> = {
  name: "time-entries",
  singular: "time entry",
  tags: ["Time entries"],
  description: "Minutes an employee logged on a task on a day (at most 1,440 a day per employee); they add up to each project's logged_minutes.",
  table: timeEntries,
  schemas: { output: TimeEntry, create: CreateTimeEntry, update: UpdateTimeEntry },
  ui: { title: "date", columns: ["date", "employee_id", "task_id", "project_id", "minutes", "billable"], multiline: ["note"] },
  toOutput: toTimeEntry,
  toInsert: (input, _now, tenant) => ({
    employeeId: input.employee_id,
    taskId: input.task_id,
    projectId: projectOfTask(tenant, input.task_id),
    date: input.date,
    minutes: input.minutes,
    billable: input.billable ?? true,
    note: input.note ?? null,
  }),
  toUpdate: ({ employee_id, task_id, ...rest }, _now, tenant) => ({
    ...rest,
    ...(employee_id !== undefined ? { employeeId: employee_id } : {}),
    ...(task_id !== undefined ? { taskId: task_id, projectId: projectOfTask(tenant, task_id) } : {}),
  }),
  // A deleted task or an employee who has left cannot take new time.
  references: [
    { field: "task_id", table: tasks, what: "live task", live: isNull(tasks.deletedAt) },
    { field: "employee_id", table: employees, what: "current employee (not left)", live: ne(employees.status, "left") },
  ],
  checks: [dailyCap],
  // Row checks (the daily cap) need each write on its own: no batch route.
  routes: { batch: false },
  examples: {
    create: { employee_id: 1, task_id: 1, date: "2026-11-20", minutes: 90, billable: true, note: "Sitemap workshop" },
    update: { minutes: 120 },
  },
  sortable: { id: timeEntries.id, date: timeEntries.date },
  filters: {
    employee_id: anyOf(timeEntries.employeeId, integerValue, "Employee id (comma list = any of)"),
    task_id: anyOf(timeEntries.taskId, integerValue, "Task id (comma list = any of)"),
    project_id: anyOf(timeEntries.projectId, integerValue, "Project id (comma list = any of)"),
    date_from: dateBound(timeEntries.date, "after", "On or after this date (YYYY-MM-DD)"),
    date_to: dateBound(timeEntries.date, "before", "On or before this date (YYYY-MM-DD)"),
    billable: booleanFilter((billable) => eq(timeEntries.billable, billable), "true: billable entries only; false: non-billable only"),
  },
  searchable: [timeEntries.note],
  uniques: [],
};

const entries = alias(timeEntries, "te");
const liveTasks = alias(tasks, "t");

/** logged_minutes of a project: its entries on live tasks, in the statement that reads the project. */
export const loggedMinutes =
  sql<number>`(SELECT coalesce(sum(te.minutes), 0) FROM ${tableAs(entries)} JOIN ${tableAs(liveTasks)} ON t.id = te.task_id AND ${sameWorkspace(liveTasks, entries)} WHERE ${sameWorkspace(entries, projects)} AND te.project_id = ${q(projects.id)} AND t.deleted_at IS NULL)`.mapWith(
    Number,
  );
