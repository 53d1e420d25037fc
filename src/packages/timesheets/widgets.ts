import { sql } from "drizzle-orm";
import { defineWidget, largestFirst } from "../../platform/widgets";
import { projects } from "../taskly/schema";
import { timeEntries } from "./schema";

export const timesheetWidgets = [
  defineWidget({
    key: "timesheets.logged_by_project",
    title: "Time by project",
    description: "Minutes logged in the period, per project",
    kind: "breakdown",
    unit: "minutes",
    reads: ["time-entries", "projects"],
    query: ({ tenant, period }) => ({
      statements: [
        tenant.rows(sql`SELECT p.id AS id, p.name AS label, sum(te.minutes) AS value
              FROM ${timeEntries} te JOIN ${projects} p ON p.id = te.project_id
              WHERE te.workspace_id = ${tenant.workspaceId} AND te.date >= ${period.from} AND te.date <= ${period.to}
              GROUP BY p.id`),
      ],
      build: ([rows]) => ({
        items: largestFirst((rows as { id: number; label: string; value: number }[]).map((row) => ({ ...row, value: Number(row.value) }))),
      }),
    }),
  }),
];
