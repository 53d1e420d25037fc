import { z } from "@hono/zod-openapi";
import { and, eq, gte, inArray, lte, ne, type SQL, sql } from "drizzle-orm";
import { fields } from "../../platform/fields";
import type { EventDeclaration } from "../../platform/packages";
import type { ResourceDefinition, Row, RowCheck } from "../../platform/resource/definition";
import { anyOf, dateBound, dateValue, integerValue } from "../../platform/resource/filters";
import { qualified as q, type Tenant } from "../../platform/tenancy";
import { isoTimestamp } from "../../platform/time";
import { employees } from "../hrm/schema";
import { holidays, LEAVE_STATUSES, type LeaveStatus, leaveRequests, leaveTypes } from "./schema";

export const LeaveRequest = z
  .object({
    id: z.number().int(),
    employee_id: z.number().int(),
    leave_type_id: z.number().int(),
    start_date: z.string().openapi({ example: "2026-12-21" }),
    end_date: z.string().openapi({ description: "The last day of leave (inclusive)", example: "2026-12-24" }),
    half_day: z.boolean().openapi({ description: "Half a day (start_date = end_date only)" }),
    reason: z.string().nullable(),
    status: z.enum(LEAVE_STATUSES).openapi({ description: "Read-only: pending when made; changed by approve, reject and cancel" }),
    days: z.number().openapi({
      description: "Read-only: the working days it takes (Monday–Friday, minus the workspace's holidays), counted when it was made; 0.5 for a half day",
    }),
    decided_at: fields.timestamp().nullable().openapi({ description: "When an admin approved or rejected it" }),
    created_at: fields.timestamp(),
    updated_at: fields.timestamp(),
  })
  .openapi("LeaveRequest");

export const leaveEvents = {
  "leave.approved": { description: "An admin approved a leave request", data: LeaveRequest },
} satisfies Record<string, EventDeclaration>;

/** The statuses that hold days: a request in one of them blocks an overlapping one of the same employee. */
export const HOLDING: LeaveStatus[] = ["pending", "approved"];

/** Where the actions work from: approve and reject are admins'; cancel is anyone's who may write leave requests. */
export const LEAVE_NEXT: Record<"approve" | "reject" | "cancel", { from: LeaveStatus[]; to: LeaveStatus }> = {
  approve: { from: ["pending"], to: "approved" },
  reject: { from: ["pending"], to: "rejected" },
  cancel: { from: ["pending", "approved"], to: "cancelled" },
};

type Dates = { start_date?: string; end_date?: string; half_day?: boolean };

/** A request is one calendar year at most (balances are per year), and half a day is one day. */
function oneYearAndHalfDays(input: Dates, context: z.RefinementCtx) {
  const { start_date: start, end_date: end } = input;
  if (start === undefined || end === undefined || end < start) return; // the order rule says what is wrong
  if (start.slice(0, 4) !== end.slice(0, 4))
    context.addIssue({
      code: "custom",
      path: ["end_date"],
      message: `must be in the same calendar year as start_date (balances are per year): split it at the new year into ${start}–${start.slice(0, 4)}-12-31 and ${end.slice(0, 4)}-01-01–${end}`,
    });
  if (input.half_day === true && start !== end)
    context.addIssue({ code: "custom", path: ["half_day"], message: "is only for a single day: start_date and end_date must be the same" });
}

const CreateLeaveRequest = z
  .strictObject({
    employee_id: fields.id(),
    leave_type_id: fields.id(),
    start_date: fields.date(),
    end_date: fields.date(),
    half_day: z.boolean().optional(),
    reason: fields.text(1000).nullable().optional(),
  })
  .superRefine(oneYearAndHalfDays)
  .openapi("CreateLeaveRequest");
// The dates, the employee and the type are what was asked for and decided on: only the reason changes.
const UpdateLeaveRequest = z
  .strictObject({ reason: fields.text(1000).nullable() })
  .partial()
  .openapi("UpdateLeaveRequest");

type LeaveRequestRow = Row<typeof leaveRequests>;

export function toLeaveRequest(row: LeaveRequestRow): z.infer<typeof LeaveRequest> {
  return {
    id: row.id,
    employee_id: row.employeeId,
    leave_type_id: row.leaveTypeId,
    start_date: row.startDate,
    end_date: row.endDate,
    half_day: row.halfDay,
    reason: row.reason,
    status: row.status,
    days: Number(row.days),
    decided_at: isoTimestamp(row.decidedAt),
    created_at: isoTimestamp(row.createdAt),
    updated_at: isoTimestamp(row.updatedAt),
  };
}

/**
 * The working days from `start` to `end` (inclusive) as one SQL value: the dates of the span (a recursive
 * CTE, at most a year of rows) that are Monday–Friday and not a holiday of the workspace; halved for a half day.
 */
export function workingDaysSql(tenant: Tenant, start: string, end: string, halfDay: boolean): SQL {
  return sql`(WITH RECURSIVE span(day) AS (SELECT ${start} UNION ALL SELECT date(day, '+1 day') FROM span WHERE day < ${end})
    SELECT count(*) * ${halfDay ? 0.5 : 1.0} FROM span
    WHERE strftime('%w', day) NOT IN ('0', '6')
      AND NOT EXISTS (SELECT 1 FROM ${holidays} WHERE ${tenant.scope(holidays, sql`${q(holidays.date)} = span.day`)}))`;
}

/** The working days a request would take, read from the database (for an explanation). */
async function daysOf(tenant: Tenant, row: Record<string, unknown>): Promise<number> {
  if (typeof row.days === "number") return row.days;
  const [result] = await tenant.rows<{ days: number }>(
    sql`SELECT ${workingDaysSql(tenant, row.startDate as string, row.endDate as string, Boolean(row.halfDay))} AS days`,
  );
  return Number(result?.days ?? 0);
}

/** A request must take at least one working day (half a day for a half day): a weekend alone is not leave. */
const takesWorkingDays: RowCheck = {
  onCreate: (values) => sql`${values.days as SQL} > 0`,
  // Only the reason changes after a create.
  onUpdate: () => undefined,
  async explain(tenant, row) {
    if ((await daysOf(tenant, row)) > 0) return [];
    const what =
      row.startDate === row.endDate
        ? `${row.startDate as string} is not a working day`
        : `${row.startDate as string} to ${row.endDate as string} covers no working day`;
    return [{ path: "start_date", message: `${what} (Saturdays, Sundays and the workspace's holidays are not counted): there is nothing to take leave from` }];
  },
};

/** Requests of the same employee that hold days (pending or approved) and share a day with [start, end]. */
const overlapping = (start: string, end: string, employeeId: number) => [
  eq(leaveRequests.employeeId, employeeId),
  inArray(leaveRequests.status, HOLDING),
  lte(leaveRequests.startDate, end),
  gte(leaveRequests.endDate, start),
];

/**
 * No two pending or approved requests of one employee share a day: a guard in the create's batch, so of
 * concurrent overlapping requests exactly one is written. A clash is a 409 (the `conflict` mark).
 */
const noOverlap: RowCheck = {
  conflict: true,
  onCreate: (values, tenant) =>
    sql`NOT EXISTS (SELECT 1 FROM ${leaveRequests} WHERE ${tenant.scope(leaveRequests, ...overlapping(values.startDate as string, values.endDate as string, values.employeeId as number))})`,
  onUpdate: () => undefined,
  async explain(tenant, row, id) {
    const clashes = await tenant
      .selectFrom(
        { id: leaveRequests.id, startDate: leaveRequests.startDate, endDate: leaveRequests.endDate, status: leaveRequests.status },
        leaveRequests,
        ...overlapping(row.startDate as string, row.endDate as string, row.employeeId as number),
        id === null ? undefined : ne(leaveRequests.id, id),
      )
      .orderBy(leaveRequests.startDate)
      .limit(5);
    return clashes.map((clash) => ({
      path: "start_date",
      message: `overlaps leave request ${clash.id} of this employee (${clash.startDate} to ${clash.endDate}, ${clash.status}); cancel that one first or choose other dates`,
      conflicting_id: clash.id,
    }));
  },
};

export const leaveRequestResource: ResourceDefinition<
  typeof leaveRequests,
  z.infer<typeof CreateLeaveRequest>,
  z.infer<typeof UpdateLeaveRequest>,
  z.infer<typeof LeaveRequest>
> = {
  name: "leave-requests",
  singular: "leave request",
  tags: ["Leave requests"],
  description:
    "Time off an employee asks for: its working days are counted when it is made (Monday–Friday, minus holidays); admins approve it within the year's allowance of its leave type, or reject it.",
  table: leaveRequests,
  schemas: { output: LeaveRequest, create: CreateLeaveRequest, update: UpdateLeaveRequest },
  ui: {
    title: "start_date",
    columns: ["start_date", "end_date", "employee_id", "leave_type_id", "days", "status"],
    multiline: ["reason"],
    links: [{ label: "Team calendar", href: (record) => `/app/leave/calendar?month=${String(record.start_date).slice(0, 7)}` }],
    actions: [
      {
        name: "approve",
        label: "Approve",
        method: "POST",
        path: "approve",
        when: (r) => LEAVE_NEXT.approve.from.includes(r.status as LeaveStatus),
        primary: true,
        done: "The leave request is approved.",
      },
      {
        name: "reject",
        label: "Reject",
        method: "POST",
        path: "reject",
        when: (r) => LEAVE_NEXT.reject.from.includes(r.status as LeaveStatus),
        confirm: "Reject this leave request?",
        done: "The leave request is rejected.",
      },
      {
        name: "cancel",
        label: "Cancel leave",
        method: "POST",
        path: "cancel",
        when: (r) => LEAVE_NEXT.cancel.from.includes(r.status as LeaveStatus),
        confirm: "Cancel this leave? Its days are given back.",
        done: "The leave request is cancelled.",
      },
    ],
  },
  toOutput: toLeaveRequest,
  toInsert: (input, _now, tenant) => ({
    employeeId: input.employee_id,
    leaveTypeId: input.leave_type_id,
    startDate: input.start_date,
    endDate: input.end_date,
    halfDay: input.half_day ?? false,
    reason: input.reason ?? null,
    status: "pending" as const,
    days: workingDaysSql(tenant, input.start_date, input.end_date, input.half_day ?? false),
    decidedAt: null,
  }),
  toUpdate: (input) => input,
  // A leaver cannot ask for leave; another workspace's employee or type looks like a missing one.
  references: [
    { field: "employee_id", table: employees, what: "current employee (not left)", live: ne(employees.status, "left") },
    { field: "leave_type_id", table: leaveTypes, what: "leave type" },
  ],
  ordered: [{ first: { field: "start_date", column: leaveRequests.startDate }, last: { field: "end_date", column: leaveRequests.endDate } }],
  checks: [takesWorkingDays, noOverlap],
  locks: [
    {
      fields: ["reason"],
      column: leaveRequests.status,
      onlyWhen: ["pending"],
      message: (_locked, current) => `A leave request that is ${current} cannot change; only a pending request's reason can`,
      detail: "can change only while the request is pending",
    },
  ],
  deletable: {
    column: leaveRequests.status,
    onlyWhen: ["pending"],
    message: (current) => `Only pending leave requests can be deleted; this one is ${current} (cancel it instead).`,
  },
  // Row checks (overlaps) need each write on its own.
  routes: { batch: false },
  notes: {
    create:
      "Made pending. `days` is counted by the statement that writes it. end_date before start_date, a half day over more than one day, a span across the new year, a span with no working day, an employee who has left → 400; a pending or approved request of the same employee sharing a day → 409 conflict.",
    update: "Only the reason, and only while the request is pending (else 409 conflict). Status changes through approve, reject and cancel.",
    delete: "Only while pending (else 409 conflict); cancel an approved request instead.",
  },
  examples: {
    create: { employee_id: 1, leave_type_id: 1, start_date: "2026-12-21", end_date: "2026-12-24", reason: "Family visit" },
    update: { reason: "Family visit (flights booked)" },
  },
  sortable: { id: leaveRequests.id, start_date: leaveRequests.startDate, days: leaveRequests.days, created_at: leaveRequests.createdAt },
  filters: {
    employee_id: anyOf(leaveRequests.employeeId, integerValue, "Employee id (comma list = any of)"),
    leave_type_id: anyOf(leaveRequests.leaveTypeId, integerValue, "Leave type id (comma list = any of)"),
    status: anyOf(leaveRequests.status, z.enum(LEAVE_STATUSES), "Status (comma list = any of)"),
    date_from: dateBound(leaveRequests.endDate, "after", "Requests that end on or after this date (YYYY-MM-DD): with date_to, those overlapping the range"),
    date_to: dateBound(leaveRequests.startDate, "before", "Requests that start on or before this date (YYYY-MM-DD)"),
    on: {
      schema: dateValue,
      where: (day: string) => and(lte(leaveRequests.startDate, day), gte(leaveRequests.endDate, day)),
      description: "Requests covering this date (YYYY-MM-DD): with status=approved, who is off that day",
    },
  },
  searchable: [leaveRequests.reason],
  uniques: [],
};
