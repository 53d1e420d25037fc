import { count, desc, eq, gte, sql } from "drizzle-orm";
import { defineWidget, largestFirst } from "../../platform/widgets";
import { employees } from "./schema";

export const hrmWidgets = [
  defineWidget({
    key: "hrm.headcount",
    title: "Headcount",
    description: "Active employees, now",
    kind: "stat",
    unit: "count",
    reads: ["employees"],
    query: ({ tenant }) => ({
      statements: [tenant.db.select({ value: count() }).from(employees).where(tenant.scope(employees, eq(employees.status, "active")))],
      build: ([rows]) => ({ value: (rows as { value: number }[])[0]?.value ?? 0 }),
    }),
  }),
  defineWidget({
    key: "hrm.headcount_by_department",
    title: "Headcount by department",
    description: "Active employees by department",
    kind: "breakdown",
    unit: "count",
    reads: ["employees"],
    query: ({ tenant }) => ({
      statements: [
        tenant.db
          .select({ label: sql<string>`coalesce(${employees.department}, 'unassigned')`, value: count() })
          .from(employees)
          .where(tenant.scope(employees, eq(employees.status, "active")))
          .groupBy(sql`1`),
      ],
      build: ([rows]) => ({ items: largestFirst(rows as { label: string; value: number }[]) }),
    }),
  }),
  defineWidget({
    key: "hrm.new_joiners",
    title: "New joiners",
    description: "The latest 5 employees who joined in the period",
    kind: "list",
    unit: "count",
    reads: ["employees"],
    query: ({ tenant, period }) => ({
      statements: [
        tenant.db
          .select({ id: employees.id, label: employees.name, date_of_joining: employees.dateOfJoining, department: employees.department, designation: employees.designation })
          .from(employees)
          .where(tenant.scope(employees, gte(employees.dateOfJoining, period.from), sql`${employees.dateOfJoining} <= ${period.to}`))
          .orderBy(desc(employees.dateOfJoining), desc(employees.id))
          .limit(5),
      ],
      build: ([rows]) => ({ items: rows }),
    }),
  }),
];
