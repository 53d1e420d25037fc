import { z } from "@hono/zod-openapi";
import { sql } from "drizzle-orm";
import { fields } from "../../platform/fields";
import type { ResourceDefinition, Row } from "../../platform/resource/definition";
import { anyOf, integerValue } from "../../platform/resource/filters";
import { qualified as q, sameWorkspace } from "../../platform/tenancy";
import { isoTimestamp } from "../../platform/time";
import { customers } from "../account/schema";
import { PROJECT_STATUSES, projects, taskCounts } from "./schema";

const Project = z
  .object({
    id: z.number().int(),
    name: z.string(),
    description: z.string().nullable(),
    status: z.enum(PROJECT_STATUSES),
    customer_id: z.number().int().nullable(),
    start_date: z.string().nullable(),
    end_date: z.string().nullable(),
    task_count: z.number().int().openapi({ description: "Live (not deleted) tasks" }),
    completed_task_count: z.number().int().openapi({ description: "Live tasks with status done" }),
    logged_minutes: z.number().int().optional().openapi({ description: "Minutes logged on its live tasks; present while the timesheets package is enabled" }),
    created_at: fields.timestamp(),
    updated_at: fields.timestamp(),
  })
  .openapi("Project");

const writable = {
  name: fields.name(),
  description: fields.text(5000).nullable(),
  status: z.enum(PROJECT_STATUSES),
  customer_id: fields.id().nullable(),
  start_date: fields.date().nullable(),
  end_date: fields.date().nullable(),
};
const CreateProject = z.strictObject(writable).partial().required({ name: true }).openapi("CreateProject");
const UpdateProject = z.strictObject(writable).partial().openapi("UpdateProject");

const countsOf = (project: typeof projects) => sql`${sameWorkspace(taskCounts, project)} AND ${q(taskCounts.projectId)} = ${q(project.id)}`;

type ProjectRow = Row<typeof projects> & { taskCount?: number; completedTaskCount?: number };

export const projectResource: ResourceDefinition<typeof projects, z.infer<typeof CreateProject>, z.infer<typeof UpdateProject>, z.infer<typeof Project>> = {
  name: "projects",
  singular: "project",
  tags: ["Projects"],
  description: "Projects with live task counts (and logged minutes while timesheets is enabled).",
  table: projects,
  schemas: { output: Project, create: CreateProject, update: UpdateProject },
  ui: {
    title: "name",
    columns: ["name", "status", "customer_id", "start_date", "end_date", "task_count"],
    multiline: ["description"],
    related: [{ resource: "time-entries", filter: "project_id", title: "time entries" }],
  },
  toOutput: (row: ProjectRow) => ({
    id: row.id,
    name: row.name,
    description: row.description,
    status: row.status,
    customer_id: row.customerId,
    start_date: row.startDate,
    end_date: row.endDate,
    task_count: row.taskCount ?? 0,
    completed_task_count: row.completedTaskCount ?? 0,
    created_at: isoTimestamp(row.createdAt),
    updated_at: isoTimestamp(row.updatedAt),
  }),
  toInsert: (input) => ({
    name: input.name,
    description: input.description ?? null,
    status: input.status ?? "active",
    customerId: input.customer_id ?? null,
    startDate: input.start_date ?? null,
    endDate: input.end_date ?? null,
  }),
  toUpdate: ({ customer_id, start_date, end_date, ...rest }) => ({
    ...rest,
    ...(customer_id !== undefined ? { customerId: customer_id } : {}),
    ...(start_date !== undefined ? { startDate: start_date } : {}),
    ...(end_date !== undefined ? { endDate: end_date } : {}),
  }),
  references: [{ field: "customer_id", table: customers, what: "customer" }],
  ordered: [{ first: { field: "start_date", column: projects.startDate }, last: { field: "end_date", column: projects.endDate } }],
  // Live task counts in the statement that reads the project, from the task-count rollup (at most four
  // rows per project, whatever its number of tasks).
  computed: {
    taskCount: sql<number>`(SELECT coalesce(sum(${q(taskCounts.tasks)}), 0) FROM ${taskCounts} WHERE ${countsOf(projects)})`.mapWith(Number),
    completedTaskCount:
      sql<number>`(SELECT coalesce(sum(${q(taskCounts.tasks)}), 0) FROM ${taskCounts} WHERE ${countsOf(projects)} AND ${q(taskCounts.status)} = 'done')`.mapWith(
        Number,
      ),
  },
  examples: {
    create: {
      name: "Website relaunch",
      description: "New site and CMS for Initech",
      status: "active",
      customer_id: 1,
      start_date: "2026-11-01",
      end_date: "2027-01-31",
    },
    update: { status: "on_hold" },
  },
  sortable: { id: projects.id, name: projects.name, created_at: projects.createdAt },
  filters: {
    status: anyOf(projects.status, z.enum(PROJECT_STATUSES), "Status (comma list = any of)"),
    customer_id: anyOf(projects.customerId, integerValue, "Customer id (comma list = any of)"),
  },
  searchable: [projects.name, projects.description],
  search: { code: 6, label: projects.name, text: [projects.description] },
  uniques: [],
};
