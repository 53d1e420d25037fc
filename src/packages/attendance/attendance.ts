import { z } from "@hono/zod-openapi";
import { gt, isNotNull, isNull, type SQL, sql } from "drizzle-orm";
import { fields } from "../../platform/fields";
import type { NewRow, ResourceDefinition, Row, WithSql } from "../../platform/resource/definition";
import { anyOf, booleanFilter, dateBound, integerValue } from "../../platform/resource/filters";
import { qualified as q } from "../../platform/tenancy";
import { isoTimestamp } from "../../platform/time";
import { employees } from "../hrm/schema";
import { attendance } from "./schema";
import { clockTime, lateMinutes, workedMinutes } from "./times";

export const Attendance = z
  .object({
    id: z.number().int(),
    employee_id: z.number().int(),
    date: z.string().openapi({ example: "2026-11-20" }),
    clock_in: z.string().openapi({ description: "HH:MM, UTC", example: "09:05" }),
    clock_out: z.string().nullable().openapi({ description: "HH:MM, UTC; null while the employee is clocked in", example: "17:40" }),
    note: z.string().nullable(),
    worked_minutes: z
      .number()
      .int()
      .nullable()
      .openapi({ description: "Read-only: clock_out − clock_in (a clock_out before clock_in is the next day); null while open" }),
    late_minutes: z
      .number()
      .int()
      .openapi({ description: "Read-only: minutes the day's first clock-in was after the workspace's workday_start (0 for later records of the day)" }),
    created_at: fields.timestamp(),
    updated_at: fields.timestamp(),
  })
  .openapi("Attendance");

const writable = {
  employee_id: fields.id(),
  date: fields.date(),
  clock_in: clockTime(),
  clock_out: clockTime().nullable(),
  note: fields.text(1000).nullable(),
};
const CreateAttendance = z.strictObject(writable).partial().required({ employee_id: true, date: true, clock_in: true }).openapi("CreateAttendance");
const UpdateAttendance = z.strictObject(writable).partial().openapi("UpdateAttendance");

export function toAttendance(row: Row<typeof attendance>): z.infer<typeof Attendance> {
  return {
    id: row.id,
    employee_id: row.employeeId,
    date: row.date,
    clock_in: row.clockIn,
    clock_out: row.clockOut,
    note: row.note,
    worked_minutes: row.workedMinutes,
    late_minutes: row.lateMinutes,
    created_at: isoTimestamp(row.createdAt),
    updated_at: isoTimestamp(row.updatedAt),
  };
}

/** A value the write sets, or the row's own column when it leaves it (SET expressions read the old row). */
const setOr = (value: unknown, column: Parameters<typeof q>[0]): SQL => (value !== undefined ? sql`${value}` : q(column));

/**
 * Records an admin writes by hand (a forgotten clock-out, a missed day). worked_minutes and late_minutes
 * are never sent: they are computed by the statement that writes the times, so they always match them.
 */
export const attendanceResource: ResourceDefinition<
  typeof attendance,
  z.infer<typeof CreateAttendance>,
  z.infer<typeof UpdateAttendance>,
  z.infer<typeof Attendance>
> = {
  name: "attendance",
  singular: "attendance record",
  tags: ["Attendance"],
  description:
    "When employees clocked in and out (UTC), with worked and late minutes computed by the API; POST /attendance/clock-in and /attendance/clock-out keep one open record per employee.",
  table: attendance,
  schemas: { output: Attendance, create: CreateAttendance, update: UpdateAttendance },
  ui: {
    title: "date",
    columns: ["date", "employee_id", "clock_in", "clock_out", "worked_minutes", "late_minutes"],
    multiline: ["note"],
    links: [{ label: "Monthly report", href: (record) => `/app/attendance/report?month=${String(record.date).slice(0, 7)}` }],
  },
  toOutput: toAttendance,
  toInsert: (input, _now, tenant) => ({
    employeeId: input.employee_id,
    date: input.date,
    clockIn: input.clock_in,
    clockOut: input.clock_out ?? null,
    note: input.note ?? null,
    workedMinutes: workedMinutes(sql`${input.clock_in}`, sql`${input.clock_out ?? null}`),
    lateMinutes: lateMinutes(tenant, sql`${input.employee_id}`, sql`${input.date}`, sql`${input.clock_in}`),
  }),
  toUpdate: ({ employee_id, clock_in, clock_out, ...rest }, _now, tenant) => {
    const values: WithSql<Partial<NewRow<typeof attendance>>> = { ...rest };
    if (employee_id !== undefined) values.employeeId = employee_id;
    if (clock_in !== undefined) values.clockIn = clock_in;
    if (clock_out !== undefined) values.clockOut = clock_out;
    if (clock_in !== undefined || clock_out !== undefined)
      values.workedMinutes = workedMinutes(setOr(clock_in, attendance.clockIn), setOr(clock_out, attendance.clockOut));
    if (clock_in !== undefined || employee_id !== undefined || rest.date !== undefined)
      values.lateMinutes = lateMinutes(
        tenant,
        setOr(employee_id, attendance.employeeId),
        setOr(rest.date, attendance.date),
        setOr(clock_in, attendance.clockIn),
        q(attendance.id),
      );
    return values;
  },
  // Any employee of the workspace, also one who has left: an admin may complete the history of a leaver.
  references: [{ field: "employee_id", table: employees, what: "employee" }],
  notes: {
    create:
      "For records written by hand; employees clock in with POST /attendance/clock-in. worked_minutes and late_minutes are computed (late against the workspace's workday_start, for the day's first record). A second open record (no clock_out) for one employee → 409 conflict.",
    update:
      "Changing clock_in or clock_out recomputes worked_minutes; changing clock_in, date or employee_id recomputes late_minutes against the current workday_start.",
  },
  examples: {
    create: { employee_id: 1, date: "2026-11-20", clock_in: "09:05", clock_out: "17:40", note: "Forgot to clock out" },
    update: { clock_out: "18:00" },
  },
  sortable: { id: attendance.id, date: attendance.date },
  filters: {
    employee_id: anyOf(attendance.employeeId, integerValue, "Employee id (comma list = any of)"),
    date_from: dateBound(attendance.date, "after", "On or after this date (YYYY-MM-DD)"),
    date_to: dateBound(attendance.date, "before", "On or before this date (YYYY-MM-DD)"),
    open: booleanFilter((open) => (open ? isNull(attendance.clockOut) : isNotNull(attendance.clockOut)), "true: still clocked in; false: clocked out"),
    late: booleanFilter((late) => (late ? gt(attendance.lateMinutes, 0) : sql`${attendance.lateMinutes} = 0`), "true: late arrivals only; false: on time"),
  },
  searchable: [attendance.note],
  uniques: [{ constraint: "attendance.workspace_id, attendance.employee_id", field: "employee_id" }],
};
