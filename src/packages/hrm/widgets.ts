import { count, desc, eq, gte, sql } from "drizzle-orm";
import type { Tenant } from "../../platform/tenancy";
import { defineWidget, largestFirst, shared } from "../../platform/widgets";
import { employees } from "./schema";

/** Active employees per department, grouped by the column itself (streamed in index order); shared by two widgets. */
const activeByDepartment = (tenant: Tenant) =>
  shared(
    "hrm.active_by_department",
    tenant.selectFrom({ label: employees.department, value: count() }, employees, eq(employees.status, "active")).groupBy(employees.department),
  );

export const hrmWidgets = [
  defineWidget({
    key: "hrm.headcount",
    link: () => "/app/employees?status=active",
    title: "Headcount",
    description: "Active employees, now",
    kind: "stat",
    unit: "count",
    reads: ["employees"],
    query: ({ tenant }) => ({
      statements: [activeByDepartment(tenant)],
      build: ([rows]) => ({ value: (rows as { value: number }[]).reduce((sum, row) => sum + row.value, 0) }),
    }),
  }),
  defineWidget({
    key: "hrm.headcount_by_department",
    link: () => "/app/employees?status=active",
    title: "Headcount by department",
    description: "Active employees by department",
    kind: "breakdown",
    unit: "count",
    reads: ["employees"],
    query: ({ tenant }) => ({
      statements: [activeByDepartment(tenant)],
      build: ([rows]) => ({
        items: largestFirst((rows as { label: string | null; value: number }[]).map((row) => ({ label: row.label ?? "unassigned", value: row.value }))),
      }),
    }),
  }),
  defineWidget({
    key: "hrm.new_joiners",
    link: (period) => `/app/employees?joined_after=${period.from}&joined_before=${period.to}`,
    title: "New joiners",
    description: "The latest 5 employees who joined in the period",
    kind: "list",
    unit: "count",
    reads: ["employees"],
    query: ({ tenant, period }) => ({
      statements: [
        tenant
          .selectFrom(
            {
              id: employees.id,
              label: employees.name,
              date_of_joining: employees.dateOfJoining,
              department: employees.department,
              designation: employees.designation,
            },
            employees,
            gte(employees.dateOfJoining, period.from),
            sql`${employees.dateOfJoining} <= ${period.to}`,
          )
          .orderBy(desc(employees.dateOfJoining), desc(employees.id))
          .limit(5),
      ],
      build: ([rows]) => ({ items: rows }),
    }),
  }),
];
