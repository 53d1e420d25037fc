import { sql } from "drizzle-orm";
import { alias } from "drizzle-orm/sqlite-core";
import { tableAs } from "../../platform/tenancy";
import { defineWidget, largestFirst } from "../../platform/widgets";
import { projects } from "../taskly/schema";
import { timeEntries } from "./schema";

export const timesheetWidgets = [
  defineWidget({
    key: "timesheets.logged_by_project",
    link: (period) => `/app/time-entries?date_from=${period.from}&date_to=${period.to}`,
    title: "Time by project",
    description: "Minutes logged in the period, per project",
    kind: "breakdown",
    unit: "minutes",
    reads: ["time-entries", "projects"],
    query: ({ tenant, period }) => {
      const te = alias(timeEntries, "te");
      const p = alias(projects, "p");
      return {
        statements: [
          tenant.rows(sql`SELECT p.id AS id, p.name AS label, sum(te.minutes) AS value
              FROM ${tableAs(te)} JOIN ${tableAs(p)} ON ${tenant.scope(p, sql`p.id = te.project_id`)}
              WHERE ${tenant.scope(te, sql`te.date >= ${period.from} AND te.date <= ${period.to}`)}
              GROUP BY p.id`),
        ],
        build: ([rows]) => ({
          items: largestFirst((rows as { id: number; label: string; value: number }[]).map((row) => ({ ...row, value: Number(row.value) }))),
        }),
      };
    },
  }),
];
