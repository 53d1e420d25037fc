import { eq, inArray, sql } from "drizzle-orm";
import { alias } from "drizzle-orm/sqlite-core";
import { access } from "../../platform/auth/permissions";
import { ApiError } from "../../platform/errors";
import { recordEvent } from "../../platform/events";
import { newRouter } from "../../platform/http/router";
import { defineRoute, envelope, IdParam, jsonContent } from "../../platform/openapi";
import { rowJson } from "../../platform/resource/row-json";
import { readBack } from "../../platform/resource/writes";
import { qualified as q, type Tenant, tableAs, tenantOf } from "../../platform/tenancy";
import { clock } from "../../platform/time";
import { LEAVE_NEXT, LeaveRequest, leaveRequestResource, toLeaveRequest } from "./leave-requests";
import { type LeaveStatus, leaveRequests, leaveTypes } from "./schema";

const tags = ["Leave requests"];
type Action = keyof typeof LEAVE_NEXT;

const SUMMARIES: Record<Action, string> = {
  approve: "Approve a pending leave request within the year's allowance (admins)",
  reject: "Reject a pending leave request (admins)",
  cancel: "Cancel a pending or approved leave request: its days are given back",
};

const DESCRIPTIONS: Record<Action, string> = {
  approve:
    "From pending to approved, only if the employee's approved days of this leave type in the request's calendar year plus this request's days stay within the type's days_per_year; over it → 409 conflict naming the allowance, the days taken and the days requested, and nothing changes. Another status → 409 invalid_transition (details name the states it works from). Admins and owners only (a member → 403). Fires leave.approved.",
  reject: "From pending to rejected; anything else → 409 invalid_transition (details name the states it works from). Admins and owners only (a member → 403).",
  cancel:
    "From pending or approved to cancelled (anyone who may write leave requests); a rejected or cancelled request → 409 invalid_transition. A cancelled request no longer counts against the balance nor blocks other requests.",
};

const route = (action: Action) =>
  defineRoute(action === "cancel" ? access.write("leave-requests") : access.admin, {
    method: "post",
    path: `/leave-requests/{id}/${action}`,
    operationId: `${action}LeaveRequest`,
    errors: action === "approve" ? ["invalid_transition", "conflict"] : ["invalid_transition"],
    tags,
    summary: SUMMARIES[action],
    description: DESCRIPTIONS[action],
    request: { params: IdParam },
    responses: { 200: jsonContent(envelope(LeaveRequest), `The ${LEAVE_NEXT[action].to} leave request`) },
  });

const other = alias(leaveRequests, "other");
/** The first and last day of the year of the row being updated (its start_date's year). */
const yearOf = (column: typeof leaveRequests.startDate) => ({
  first: sql`substr(${q(column)}, 1, 4) || '-01-01'`,
  last: sql`substr(${q(column)}, 1, 4) || '-12-31'`,
});

/**
 * Part of the approving UPDATE's WHERE: the employee's approved days of the request's leave type in its
 * year, plus its own days, are within the type's days_per_year (read by the statement that writes).
 */
function withinAllowance(tenant: Tenant) {
  const year = yearOf(leaveRequests.startDate);
  const taken = sql`(SELECT coalesce(sum(${other.days}), 0) FROM ${tableAs(other)} WHERE ${tenant.scope(
    other,
    sql`${other.employeeId} = ${q(leaveRequests.employeeId)}`,
    sql`${other.leaveTypeId} = ${q(leaveRequests.leaveTypeId)}`,
    sql`${other.status} = 'approved'`,
    sql`${other.startDate} BETWEEN ${year.first} AND ${year.last}`,
  )})`;
  const allowance = sql`(SELECT ${q(leaveTypes.daysPerYear)} FROM ${leaveTypes} WHERE ${tenant.scope(leaveTypes, sql`${q(leaveTypes.id)} = ${q(leaveRequests.leaveTypeId)}`)})`;
  return sql`${taken} + ${q(leaveRequests.days)} <= ${allowance}`;
}

const days = (value: number) => `${value} day${value === 1 ? "" : "s"}`;

/** After an approval that did not apply to a pending request: the allowance, read once, to say why. */
async function overAllowance(tenant: Tenant, request: ReturnType<typeof toLeaveRequest>): Promise<ApiError> {
  const year = request.start_date.slice(0, 4);
  const [takenRows, typeRows] = await tenant.batch([
    tenant.selectFrom(
      { taken: sql<number>`coalesce(sum(${leaveRequests.days}), 0)`.mapWith(Number) },
      leaveRequests,
      eq(leaveRequests.employeeId, request.employee_id),
      eq(leaveRequests.leaveTypeId, request.leave_type_id),
      eq(leaveRequests.status, "approved"),
      sql`${leaveRequests.startDate} BETWEEN ${`${year}-01-01`} AND ${`${year}-12-31`}`,
    ),
    tenant.selectFrom({ name: leaveTypes.name, allowance: leaveTypes.daysPerYear }, leaveTypes, eq(leaveTypes.id, request.leave_type_id)),
  ]);
  const taken = takenRows[0]?.taken ?? 0;
  const type = typeRows[0];
  if (!type || taken + request.days <= type.allowance) return concurrentChange();
  const message = `Approving would exceed the ${type.name} allowance for ${year}: ${days(type.allowance)} a year, ${days(taken)} already taken, ${days(request.days)} requested (${days(Math.max(0, type.allowance - taken))} left)`;
  return new ApiError("conflict", message, {
    details: [
      { path: "days", message, allowance: type.allowance, taken, requested: request.days, left: Math.max(0, type.allowance - taken), year: Number(year) },
    ],
  });
}

const concurrentChange = () =>
  new ApiError("conflict", "The leave request was changed by another request while this one ran; nothing was written. Read it again and retry.");

/** One guarded UPDATE (and for an approval its event, only if it applied) in one batch; why it did not apply is read after. */
async function move(tenant: Tenant, id: number, action: Action) {
  const { from, to } = LEAVE_NEXT[action];
  const now = clock.now();
  const mine = tenant.scope(leaveRequests, eq(leaveRequests.id, id));
  const decided = action === "cancel" ? {} : { decidedAt: now };
  const update = tenant
    .update(
      leaveRequests,
      { status: to, updatedAt: now, ...decided },
      eq(leaveRequests.id, id),
      inArray(leaveRequests.status, from),
      action === "approve" ? withinAllowance(tenant) : undefined,
    )
    .returning({ id: leaveRequests.id });
  const approved = recordEvent(
    tenant,
    { type: "leave.approved", dataSql: sql`(SELECT ${rowJson(leaveRequestResource)} FROM ${leaveRequests} WHERE ${mine})`, onlyIfChanged: true },
    now,
  );
  const results = await tenant.batch([update, ...(action === "approve" ? [approved] : []), readBack(leaveRequestResource, tenant, id)]);
  const moved = results[0] as { id: number }[];
  const [row] = results.at(-1) as Parameters<typeof toLeaveRequest>[0][];
  if (!row) throw ApiError.notFound("leave request");
  const request = toLeaveRequest(row);
  if (moved.length > 0) return request;
  const status = request.status as LeaveStatus;
  if (!from.includes(status)) {
    const message = `Cannot ${action} a leave request that is ${status}`;
    throw new ApiError("invalid_transition", message, { details: [{ path: "status", message, from: status, to, allowed_from: from }] });
  }
  throw action === "approve" ? await overAllowance(tenant, request) : concurrentChange();
}

export const leaveActionRoutes = newRouter()
  .openapi(route("approve"), async (c) => c.json({ success: true as const, data: await move(tenantOf(c), c.req.valid("param").id, "approve") }, 200))
  .openapi(route("reject"), async (c) => c.json({ success: true as const, data: await move(tenantOf(c), c.req.valid("param").id, "reject") }, 200))
  .openapi(route("cancel"), async (c) => c.json({ success: true as const, data: await move(tenantOf(c), c.req.valid("param").id, "cancel") }, 200));
