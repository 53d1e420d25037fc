import { z } from "@hono/zod-openapi";
import { eq, isNull, ne, sql } from "drizzle-orm";
import { access } from "../../platform/auth/permissions";
import { ApiError } from "../../platform/errors";
import { isUniqueViolation } from "../../platform/errors-db";
import { fields } from "../../platform/fields";
import { newRouter } from "../../platform/http/router";
import { defineRoute, envelope, jsonBodyOf, jsonContent } from "../../platform/openapi";
import { type Tenant, tenantOf } from "../../platform/tenancy";
import { clock } from "../../platform/time";
import { employees } from "../hrm/schema";
import { Attendance, toAttendance } from "./attendance";
import { attendance } from "./schema";
import { dateAndTime, lateMinutes } from "./times";

const tags = ["Attendance"];

const ClockBody = z
  .strictObject({
    employee_id: fields.id(),
    note: fields.text(1000).nullable().optional(),
  })
  .openapi("ClockInOut");

const clockIn = defineRoute(access.write("attendance"), {
  method: "post",
  path: "/attendance/clock-in",
  operationId: "clockIn",
  errors: ["conflict"],
  tags,
  summary: "Clock an employee in now: a new open record for today (UTC)",
  description:
    "Opens a record dated today with clock_in the current UTC time (HH:MM), late_minutes against the workspace's workday_start for the day's first clock-in. An employee with an open record → 409 conflict (also for concurrent clock-ins: exactly one succeeds); an employee who has left, or no such employee in this workspace → 400 validation_error.",
  request: { body: jsonBodyOf(ClockBody, { employee_id: 1 }) },
  responses: { 201: jsonContent(envelope(Attendance), "The open record") },
});

const clockOut = defineRoute(access.write("attendance"), {
  method: "post",
  path: "/attendance/clock-out",
  operationId: "clockOut",
  errors: ["conflict"],
  tags,
  summary: "Clock an employee out now: closes their open record",
  description:
    "Sets clock_out to the current UTC time and worked_minutes to the minutes since clock_in — across midnight and days if the record is from an earlier day. No open record → 409 conflict; no such employee in this workspace → 400 validation_error.",
  request: { body: jsonBodyOf(ClockBody, { employee_id: 1, note: "Left early for the dentist" }) },
  responses: { 200: jsonContent(envelope(Attendance), "The closed record") },
});

const noEmployee = () => ApiError.validation([{ path: "employee_id", message: "no employee with this id in this workspace" }]);

/** After a clock-in or clock-out wrote nothing: why (read only on this path). */
async function refusal(tenant: Tenant, employeeId: number, action: "in" | "out"): Promise<ApiError> {
  const employee = await tenant.selectFrom({ name: employees.name, status: employees.status }, employees, eq(employees.id, employeeId)).get();
  if (!employee) return noEmployee();
  if (action === "in" && employee.status === "left")
    return ApiError.validation([{ path: "employee_id", message: `${employee.name} has left; only current employees clock in` }]);
  if (action === "out")
    return new ApiError("conflict", `employee_id: ${employee.name} is not clocked in (no open attendance record)`, {
      details: [{ path: "employee_id", message: "has no open attendance record" }],
    });
  return new ApiError("conflict", "The employee changed while this request ran; nothing was written. Retry.");
}

export const clockRoutes = newRouter()
  .openapi(clockIn, async (c) => {
    const { employee_id: employeeId, note } = c.req.valid("json");
    const tenant = tenantOf(c);
    const now = clock.now();
    const [date, time] = dateAndTime(now);
    // One statement: the INSERT … SELECT reads the employee and inserts nothing unless they are a current
    // employee of this workspace; the partial UNIQUE index refuses a second open record, also under races.
    const insert = tenant
      .insertSelect(
        attendance,
        sql`SELECT NULL, ${employees.workspaceId}, ${employees.id}, ${date}, ${time}, NULL, ${note ?? null}, NULL,
               ${lateMinutes(tenant, sql`${employeeId}`, sql`${date}`, sql`${time}`)}, ${now}, ${now}
            FROM ${employees} WHERE ${tenant.scope(employees, eq(employees.id, employeeId), ne(employees.status, "left"))}`,
      )
      .returning();
    let rows: (typeof attendance.$inferSelect)[];
    try {
      rows = await insert;
    } catch (error) {
      if (!isUniqueViolation(error, "attendance.workspace_id, attendance.employee_id")) throw error;
      throw new ApiError("conflict", "employee_id: this employee is already clocked in; clock out first", {
        details: [{ path: "employee_id", message: "already has an open attendance record" }],
      });
    }
    if (!rows[0]) throw await refusal(tenant, employeeId, "in");
    return c.json({ success: true as const, data: toAttendance(rows[0]) }, 201);
  })
  .openapi(clockOut, async (c) => {
    const { employee_id: employeeId, note } = c.req.valid("json");
    const tenant = tenantOf(c);
    const now = clock.now();
    const [, time] = dateAndTime(now);
    // Minutes from the record's date and clock-in to this minute: across midnight, and across days when
    // the clock-out was forgotten (counted until now).
    const minuteNow = Math.floor(now / 60_000) * 60;
    const worked = sql`max(0, (${minuteNow} - CAST(strftime('%s', ${attendance.date} || ' ' || ${attendance.clockIn}) AS INTEGER)) / 60)`;
    const [row] = await tenant
      .update(
        attendance,
        { clockOut: time, workedMinutes: worked, ...(note !== undefined ? { note } : {}), updatedAt: now },
        eq(attendance.employeeId, employeeId),
        isNull(attendance.clockOut),
      )
      .returning();
    if (!row) throw await refusal(tenant, employeeId, "out");
    return c.json({ success: true as const, data: toAttendance(row) }, 200);
  });
