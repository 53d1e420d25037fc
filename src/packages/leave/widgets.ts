import { sql } from "drizzle-orm";
import { alias } from "drizzle-orm/sqlite-core";
import { tableAs } from "../../platform/tenancy";
import { defineWidget } from "../../platform/widgets";
import { employees } from "../hrm/schema";
import { leaveRequests, leaveTypes } from "./schema";

const r = alias(leaveRequests, "r");
const e = alias(employees, "e");
const t = alias(leaveTypes, "t");

export const leaveWidgets = [
  defineWidget({
    key: "leave.out_today",
    link: (period) => `/app/leave-requests?status=approved&on=${period.today}`,
    title: "Out today",
    description: "Employees on approved leave today (UTC), with their leave type and last day of leave",
    kind: "list",
    unit: "count",
    reads: ["leave-requests", "employees"],
    // Approved requests covering today, through the (workspace, status, start_date) index; at most 20 shown.
    query: ({ tenant, period }) => ({
      statements: [
        tenant.rows(sql`SELECT e.id AS id, e.name AS label, t.name AS leave_type, r.end_date AS back_after, r.half_day AS half_day
              FROM ${tableAs(r)}
              JOIN ${tableAs(e)} ON ${tenant.scope(e, sql`e.id = r.employee_id`)}
              JOIN ${tableAs(t)} ON ${tenant.scope(t, sql`t.id = r.leave_type_id`)}
              WHERE ${tenant.scope(r, sql`r.status = 'approved' AND r.start_date <= ${period.today} AND r.end_date >= ${period.today}`)}
              ORDER BY e.name, e.id LIMIT 20`),
      ],
      build: ([rows]) => ({
        items: (rows as { id: number; label: string; leave_type: string; back_after: string; half_day: number }[]).map((row) => ({
          id: row.id,
          label: row.label,
          leave_type: Number(row.half_day) ? `${row.leave_type} (half day)` : row.leave_type,
          until: row.back_after,
        })),
      }),
    }),
  }),
];
