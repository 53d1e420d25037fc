import { count, desc, eq, gte, isNull, lt, ne, sql } from "drizzle-orm";
import { qualified as q } from "../../platform/db";
import { bucketOf, dateOfMs, defineWidget, largestFirst, percent, series } from "../../platform/widgets";
import { projects, tasks } from "./schema";

const liveTasks = (project: typeof projects) => sql`${q(tasks.workspaceId)} = ${q(project.workspaceId)} AND ${q(tasks.projectId)} = ${q(project.id)} AND ${q(tasks.deletedAt)} IS NULL`;

export const tasklyWidgets = [
  defineWidget({
    key: "taskly.tasks_by_status",
    title: "Tasks by status",
    description: "Live tasks by status, now",
    kind: "breakdown",
    unit: "count",
    reads: ["tasks"],
    query: ({ tenant }) => ({
      statements: [tenant.db.select({ label: tasks.status, value: count() }).from(tasks).where(tenant.scope(tasks, isNull(tasks.deletedAt))).groupBy(tasks.status)],
      build: ([rows]) => ({ items: largestFirst(rows as { label: string; value: number }[]) }),
    }),
  }),
  defineWidget({
    key: "taskly.overdue_tasks",
    title: "Overdue tasks",
    description: "Live tasks not done whose due date is before today",
    kind: "stat",
    unit: "count",
    reads: ["tasks"],
    query: ({ tenant, period }) => ({
      statements: [
        tenant.db
          .select({ value: count() })
          .from(tasks)
          .where(tenant.scope(tasks, isNull(tasks.deletedAt), ne(tasks.status, "done"), lt(tasks.dueDate, period.today))),
      ],
      build: ([rows]) => ({ value: (rows as { value: number }[])[0]?.value ?? 0 }),
    }),
  }),
  defineWidget({
    key: "taskly.completed_tasks",
    title: "Completed tasks",
    description: "Live tasks completed per day (per week for 90d, per month for 12mo and ytd)",
    kind: "series",
    unit: "count",
    reads: ["tasks"],
    query: ({ tenant, period }) => ({
      statements: [
        tenant.db
          .select({ bucket: sql<string>`${bucketOf(period, dateOfMs(tasks.completedAt))}`, value: count() })
          .from(tasks)
          .where(tenant.scope(tasks, gte(tasks.completedAt, period.fromMs), lt(tasks.completedAt, period.untilMs), isNull(tasks.deletedAt)))
          .groupBy(sql`1`),
      ],
      build: ([rows]) => series(period, rows as { bucket: string; value: number }[], () => 0, (a, b) => a + b),
    }),
  }),
  defineWidget({
    key: "taskly.project_progress",
    title: "Project progress",
    description: "The 5 active projects with the most tasks: the share done",
    kind: "list",
    unit: "percent",
    reads: ["projects", "tasks"],
    query: ({ tenant }) => {
      const taskCount = sql<number>`(SELECT count(*) FROM ${tasks} WHERE ${liveTasks(projects)})`;
      const done = sql<number>`(SELECT count(*) FROM ${tasks} WHERE ${liveTasks(projects)} AND ${q(tasks.status)} = 'done')`;
      return {
        statements: [
          tenant.db
            .select({ id: projects.id, label: projects.name, taskCount, done })
            .from(projects)
            .where(tenant.scope(projects, eq(projects.status, "active")))
            .orderBy(desc(taskCount), desc(projects.id))
            .limit(5),
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
