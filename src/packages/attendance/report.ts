import { z } from "@hono/zod-openapi";
import { asc, eq, gte, lte, ne, or, type SQL, sql } from "drizzle-orm";
import { qualified as q, type Statement, type Tenant } from "../../platform/tenancy";
import { employees } from "../hrm/schema";
import { holidays, leaveRequests } from "../leave/schema";
import { attendance, attendanceSettings } from "./schema";
import { DEFAULT_WORKDAY_START } from "./times";

/**
 * The monthly report: per employee, days present, on leave and absent, minutes worked and late arrivals.
 * Working days are Monday to Friday (and, while the leave package is on, not its holidays), counted from
 * the month's start (or the employee's joining date) up to today. A day with a record is present; a working
 * day without one is on leave if approved leave covers it (half a day for a half-day request), else absent —
 * but today is never an absence: the day is not over. Read in one D1 batch.
 */

export const ReportRow = z.object({
  employee_id: z.number().int(),
  name: z.string(),
  status: z.string().openapi({ description: "The employee's status; absences are not counted for one who has left (no leaving date is known)" }),
  days_present: z.number().int().openapi({ description: "Days with an attendance record (weekend work included)" }),
  days_on_leave: z
    .number()
    .openapi({ description: "Working days without a record covered by approved leave (0.5 for a half day); 0 while the leave package is off" }),
  days_absent: z.number().openapi({ description: "Working days before today with neither a record nor leave (0.5 for a half day of leave)" }),
  worked_minutes: z.number().int(),
  late_arrivals: z.number().int().openapi({ description: "Records with late_minutes above 0" }),
  late_minutes: z.number().int(),
});

export const Report = z
  .object({
    month: z.string().openapi({ example: "2026-11" }),
    through: z.string().nullable().openapi({ description: "The last day counted: the month's last day, today in the current month, null for a future month" }),
    working_days: z.number().int().openapi({ description: "Working days of the month up to and including `through`" }),
    workday_start: z.string(),
    leave_included: z.boolean().openapi({ description: "Whether approved leave and holidays of the leave package were read (it is enabled)" }),
    employees: z.array(ReportRow),
  })
  .openapi("AttendanceReport");

export type AttendanceReport = z.infer<typeof Report>;

const DAY_MS = 86_400_000;
const dayAfter = (date: string) => new Date(Date.parse(`${date}T00:00:00Z`) + DAY_MS).toISOString().slice(0, 10);
const isWeekday = (date: string) => ![0, 6].includes(new Date(`${date}T00:00:00Z`).getUTCDay());

/** The first and last day of a month ("2026-02" → 2026-02-01, 2026-02-28). */
export function monthBounds(month: string): { first: string; last: string } {
  const [year, index] = month.split("-").map(Number) as [number, number];
  return { first: `${month}-01`, last: new Date(Date.UTC(year, index, 0)).toISOString().slice(0, 10) };
}

type EmployeeRow = { id: number; name: string; status: string; dateOfJoining: string };
type PresenceRow = { employeeId: number; dates: string | null; worked: number; lateArrivals: number; late: number };
type LeaveRow = { employeeId: number; startDate: string; endDate: string; halfDay: boolean };

/** The statements of the report, for one batch (leave and holidays only while the leave package is on). */
export function reportStatements(tenant: Tenant, month: string, employeeId?: number): { statements: Statement[]; leave: boolean } {
  const { first, last } = monthBounds(month);
  const inMonth = (column: SQL | typeof attendance.date) => sql`${column} >= ${first} AND ${column} <= ${last}`;
  const recordedInMonth = sql`EXISTS (SELECT 1 FROM ${attendance} WHERE ${tenant.scope(attendance, sql`${q(attendance.employeeId)} = ${q(employees.id)}`, inMonth(q(attendance.date)))})`;
  const leave = tenant.isEnabled("leave");
  const statements: Statement[] = [
    tenant
      .selectFrom(
        { id: employees.id, name: employees.name, status: employees.status, dateOfJoining: employees.dateOfJoining },
        employees,
        or(ne(employees.status, "left"), recordedInMonth),
        employeeId === undefined ? undefined : eq(employees.id, employeeId),
      )
      .orderBy(asc(employees.name), asc(employees.id)),
    tenant
      .selectFrom(
        {
          employeeId: attendance.employeeId,
          dates: sql<string | null>`group_concat(DISTINCT ${attendance.date})`,
          worked: sql<number>`coalesce(sum(${attendance.workedMinutes}), 0)`.mapWith(Number),
          lateArrivals: sql<number>`sum(${attendance.lateMinutes} > 0)`.mapWith(Number),
          late: sql<number>`coalesce(sum(${attendance.lateMinutes}), 0)`.mapWith(Number),
        },
        attendance,
        inMonth(attendance.date),
        employeeId === undefined ? undefined : eq(attendance.employeeId, employeeId),
      )
      .groupBy(attendance.employeeId),
    tenant.select(attendanceSettings),
  ];
  if (leave) {
    statements.push(
      tenant.selectFrom(
        { employeeId: leaveRequests.employeeId, startDate: leaveRequests.startDate, endDate: leaveRequests.endDate, halfDay: leaveRequests.halfDay },
        leaveRequests,
        eq(leaveRequests.status, "approved"),
        lte(leaveRequests.startDate, last),
        gte(leaveRequests.endDate, first),
        employeeId === undefined ? undefined : eq(leaveRequests.employeeId, employeeId),
      ),
      tenant.selectFrom({ date: holidays.date }, holidays, gte(holidays.date, first), lte(holidays.date, last)),
    );
  }
  return { statements, leave };
}

/** The report from the batch's results; `today` is the UTC date the counting stops at. */
export function buildReport(month: string, today: string, leave: boolean, results: unknown[]): AttendanceReport {
  const [people, presence, settings, leaveRows = [], holidayRows = []] = results as [
    EmployeeRow[],
    PresenceRow[],
    { workdayStart: string }[],
    LeaveRow[]?,
    { date: string }[]?,
  ];
  const { first, last } = monthBounds(month);
  const through = first > today ? null : last < today ? last : today;
  const closed = new Set(holidayRows.map((row) => row.date));
  const workingDays: string[] = [];
  if (through) for (let day = first; day <= through; day = dayAfter(day)) if (isWeekday(day) && !closed.has(day)) workingDays.push(day);
  const byEmployee = new Map(presence.map((row) => [row.employeeId, row]));
  const leaveOf = (employeeId: number, day: string) => {
    const covering = leaveRows.filter((row) => row.employeeId === employeeId && row.startDate <= day && row.endDate >= day);
    if (covering.length === 0) return 0;
    return covering.some((row) => !row.halfDay) ? 1 : 0.5;
  };
  return {
    month,
    through,
    working_days: workingDays.length,
    workday_start: settings[0]?.workdayStart ?? DEFAULT_WORKDAY_START,
    leave_included: leave,
    employees: people.map((employee) => {
      const row = byEmployee.get(employee.id);
      const present = new Set(row?.dates ? row.dates.split(",") : []);
      let onLeave = 0;
      let absent = 0;
      for (const day of workingDays) {
        if (day < employee.dateOfJoining || present.has(day)) continue;
        const away = leaveOf(employee.id, day);
        onLeave += away;
        if (employee.status !== "left" && day < today) absent += 1 - away;
      }
      return {
        employee_id: employee.id,
        name: employee.name,
        status: employee.status,
        days_present: present.size,
        days_on_leave: onLeave,
        days_absent: absent,
        worked_minutes: row?.worked ?? 0,
        late_arrivals: row?.lateArrivals ?? 0,
        late_minutes: row?.late ?? 0,
      };
    }),
  };
}
