import { count, inArray, isNull, lt, sql } from "drizzle-orm";
import { alias } from "drizzle-orm/sqlite-core";
import { qualified as q, tableAs } from "../../platform/tenancy";
import { defineWidget, largestFirst, percent, series, timeSeries } from "../../platform/widgets";
import { projects, taskCounts, tasks } from "./schema";

export const tasklyWidgets = [
  defineWidget({
    key: "taskly.tasks_by_status",
    link: () => "/app/tasks?view=board",
    title: "Tasks by status",
    description: "Live tasks by status, now",
    kind: "breakdown",
    unit: "count",
    reads: ["tasks"],
    query: ({ tenant }) => ({
      statements: [
        tenant
          .selectFrom({ label: taskCounts.status, value: sql<number>`sum(${taskCounts.tasks})`.mapWith(Number) }, taskCounts)
          .groupBy(taskCounts.status)
          .having(sql`sum(${taskCounts.tasks}) > 0`),
      ],
      build: ([rows]) => ({ items: largestFirst(rows as { label: string; value: number }[]) }),
    }),
  }),
  defineWidget({
    key: "taskly.overdue_tasks",
    link: (period) => `/app/tasks?due_before=${period.today}&status=todo,in_progress,review`,
    title: "Overdue tasks",
    description: "Live tasks not done whose due date is before today",
    kind: "stat",
    unit: "count",
    reads: ["tasks"],
    query: ({ tenant, period }) => ({
      statements: [
        // The open statuses, not "<> done": three index ranges bounded by the due date, not every live task.
        tenant.selectFrom(
          { value: count() },
          tasks,
          isNull(tasks.deletedAt),
          inArray(tasks.status, ["todo", "in_progress", "review"]),
          lt(tasks.dueDate, period.today),
        ),
      ],
      build: ([rows]) => ({ value: (rows as { value: number }[])[0]?.value ?? 0 }),
    }),
  }),
  defineWidget({
    key: "taskly.completed_tasks",
    link: () => "/app/tasks?status=done",
    title: "Completed tasks",
    description: "Live tasks completed per day (per week for 90d, per month for 12mo and ytd)",
    kind: "series",
    unit: "count",
    reads: ["tasks"],
    query: ({ tenant, period }) => ({
      statements: [
        timeSeries(tenant, period, {
          table: tasks,
          time: sql`${q(tasks.completedAt)}`,
          select: sql`count(*) AS value`,
          where: sql`${q(tasks.deletedAt)} IS NULL`,
        }),
      ],
      build: ([rows]) =>
        series(
          period,
          rows as { bucket: number; value: number }[],
          () => 0,
          (a, b) => a + b,
        ),
    }),
  }),
  defineWidget({
    key: "taskly.project_progress",
    link: () => "/app/projects?status=active",
    title: "Project progress",
    description: "The 5 active projects with the most tasks: the share done",
    kind: "list",
    unit: "percent",
    reads: ["projects", "tasks"],
    query: ({ tenant }) => {
      // The task-count rollup, summed per project: a few rows per project, not its tasks.
      const c = alias(taskCounts, "c");
      const p = alias(projects, "p");
      return {
        statements: [
          tenant.rows(sql`SELECT p.id AS id, p.name AS label, sum(c.tasks) AS taskCount, sum(CASE WHEN c.status = 'done' THEN c.tasks ELSE 0 END) AS done
                FROM ${tableAs(c)} JOIN ${tableAs(p)} ON ${tenant.scope(p, sql`p.id = c.project_id AND p.status = 'active'`)}
                WHERE ${tenant.scope(c)}
                GROUP BY p.id HAVING sum(c.tasks) > 0 ORDER BY taskCount DESC, p.id DESC LIMIT 5`),
        ],
        build: ([rows]) => ({
          items: (rows as { id: number; label: string; taskCount: number; done: number }[]).map((row) => ({
            id: row.id,
            label: row.label,
            value: percent(Number(row.done), Number(row.taskCount)),
            task_count: Number(row.taskCount),
            completed_task_count: Number(row.done),
          })),
        }),
      };
    },
  }),
];
