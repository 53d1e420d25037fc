import { z } from "@hono/zod-openapi";
import { asc, eq, sql } from "drizzle-orm";
import { access } from "../../platform/auth/permissions";
import { ApiError } from "../../platform/errors";
import { newRouter } from "../../platform/http/router";
import { defineRoute, envelope, IdParam, jsonContent } from "../../platform/openapi";
import { qualified as q, type Tenant, tenantOf } from "../../platform/tenancy";
import { clock, today } from "../../platform/time";
import { employees } from "../hrm/schema";
import { leaveRequests, leaveTypes } from "./schema";

export const LeaveBalance = z
  .object({
    leave_type_id: z.number().int(),
    name: z.string().openapi({ example: "Annual leave" }),
    allowance: z.number().openapi({ description: "The type's days_per_year" }),
    taken: z.number().openapi({ description: "Days of approved requests starting in the year" }),
    pending: z.number().openapi({ description: "Days of pending requests starting in the year (not yet taken)" }),
    left: z.number().openapi({ description: "allowance − taken (pending requests not deducted)" }),
  })
  .openapi("LeaveBalance");

const BalanceQuery = z.object({
  year: z
    .string()
    .regex(/^(19[7-9]\d|2\d{3})$/, "must be a year YYYY (1970–2999)")
    .transform(Number)
    .optional()
    .openapi({ type: "integer", description: "Default: the current year (UTC)", example: 2026 }),
});

const balances = defineRoute(access.read("leave-requests"), {
  method: "get",
  path: "/employees/{id}/leave-balances",
  operationId: "employeeLeaveBalances",
  tags: ["Leave requests"],
  summary: "An employee's leave balances for a year: allowance, taken, pending and left per leave type",
  description:
    "Every leave type of the workspace (by id), in days: allowance is the type's days_per_year; taken the days of the employee's approved requests starting in the year; pending those of pending requests; left = allowance − taken. No such employee in this workspace → 404. Read in one database round trip.",
  request: { params: IdParam, query: BalanceQuery },
  responses: { 200: jsonContent(envelope(z.array(LeaveBalance)), "The balances, one per leave type") },
});

/** An employee's balances for a year, and whether the employee is one of the workspace's: one D1 batch. */
export async function readBalances(tenant: Tenant, employeeId: number, year: number) {
  const inYear = sql`${q(leaveRequests.startDate)} BETWEEN ${`${year}-01-01`} AND ${`${year}-12-31`}`;
  // Named: D1 hands a batch's rows back by column name, and the two sums' SQL reads the same.
  const sumOf = (status: "approved" | "pending") =>
    sql<number>`(SELECT coalesce(sum(${q(leaveRequests.days)}), 0) FROM ${leaveRequests} WHERE ${tenant.scope(
      leaveRequests,
      sql`${q(leaveRequests.employeeId)} = ${employeeId}`,
      sql`${q(leaveRequests.leaveTypeId)} = ${q(leaveTypes.id)}`,
      sql`${q(leaveRequests.status)} = ${status}`,
      inYear,
    )})`
      .mapWith(Number)
      .as(status);
  const [employee, rows] = await tenant.batch([
    tenant.selectFrom({ id: employees.id }, employees, eq(employees.id, employeeId)),
    tenant
      .selectFrom(
        { leave_type_id: leaveTypes.id, name: leaveTypes.name, allowance: leaveTypes.daysPerYear, taken: sumOf("approved"), pending: sumOf("pending") },
        leaveTypes,
      )
      .orderBy(asc(leaveTypes.id)),
  ]);
  if (employee.length === 0) return null;
  return rows.map((row) => ({ ...row, allowance: Number(row.allowance), left: Number(row.allowance) - row.taken }));
}

export const balanceRoutes = newRouter().openapi(balances, async (c) => {
  const { id } = c.req.valid("param");
  const year = c.req.valid("query").year ?? Number(today(clock.now()).slice(0, 4));
  const data = await readBalances(tenantOf(c), id, year);
  if (!data) throw ApiError.notFound("employee");
  return c.json({ success: true as const, data }, 200);
});
