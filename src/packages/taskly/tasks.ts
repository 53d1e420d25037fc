import { z } from "@hono/zod-openapi";
import { eq, isNotNull, sql } from "drizzle-orm";
import { access } from "../../platform/auth/permissions";
import { ApiError } from "../../platform/errors";
import { fields } from "../../platform/fields";
import { newRouter } from "../../platform/http/router";
import { defineRoute, envelope, IdParam, jsonBodyOf, jsonContent } from "../../platform/openapi";
import type { EventDeclaration } from "../../platform/packages";
import type { ResourceDefinition, Row } from "../../platform/resource/definition";
import { anyOf, dateBound, integerValue } from "../../platform/resource/filters";
import { runWrite } from "../../platform/resource/writes";
import { tenantOf } from "../../platform/tenancy";
import { isoTimestamp } from "../../platform/time";
import { employees } from "../hrm/schema";
import { projects, TASK_PRIORITIES, TASK_STATUSES, tasks } from "./schema";

const Task = z
  .object({
    id: z.number().int(),
    project_id: z.number().int(),
    title: z.string(),
    description: z.string().nullable(),
    status: z.enum(TASK_STATUSES),
    priority: z.enum(TASK_PRIORITIES),
    assignee_id: z.number().int().nullable().openapi({ description: "An employee" }),
    due_date: z.string().nullable(),
    completed_at: fields.timestamp().nullable(),
    deleted_at: fields.timestamp().nullable(),
    created_at: fields.timestamp(),
    updated_at: fields.timestamp(),
  })
  .openapi("Task");

export const taskEvents = { "task.completed": { description: "A task entered done (also a task created as done)", data: Task } } satisfies Record<
  string,
  EventDeclaration
>;

const writable = {
  title: fields.name(),
  project_id: fields.id(),
  description: fields.text(5000).nullable(),
  status: z.enum(TASK_STATUSES),
  priority: z.enum(TASK_PRIORITIES),
  assignee_id: fields.id().nullable(),
  due_date: fields.date().nullable(),
};
const CreateTask = z.strictObject(writable).partial().required({ title: true, project_id: true }).openapi("CreateTask");
const UpdateTask = z.strictObject(writable).partial().openapi("UpdateTask");
type TaskRow = Row<typeof tasks>;

function toTask(row: TaskRow): z.infer<typeof Task> {
  return {
    id: row.id,
    project_id: row.projectId,
    title: row.title,
    description: row.description,
    status: row.status,
    priority: row.priority,
    assignee_id: row.assigneeId,
    due_date: row.dueDate,
    completed_at: isoTimestamp(row.completedAt),
    deleted_at: isoTimestamp(row.deletedAt),
    created_at: isoTimestamp(row.createdAt),
    updated_at: isoTimestamp(row.updatedAt),
  };
}

export const taskResource: ResourceDefinition<typeof tasks, z.infer<typeof CreateTask>, z.infer<typeof UpdateTask>, z.infer<typeof Task>> = {
  name: "tasks",
  singular: "task",
  tags: ["Tasks"],
  description: "Tasks on a board (todo, in progress, review, done), soft-deleted and restorable; entering done fires task.completed.",
  table: tasks,
  schemas: { output: Task, create: CreateTask, update: UpdateTask },
  ui: {
    title: "title",
    columns: ["title", "project_id", "status", "priority", "assignee_id", "due_date"],
    multiline: ["description"],
    board: { field: "status", move: { kind: "action", method: "PUT", path: "status" } },
  },
  toOutput: toTask,
  toInsert: (input, now) => ({
    projectId: input.project_id,
    title: input.title,
    description: input.description ?? null,
    status: input.status ?? "todo",
    priority: input.priority ?? "medium",
    assigneeId: input.assignee_id ?? null,
    dueDate: input.due_date ?? null,
    completedAt: input.status === "done" ? now : null,
  }),
  // A board: any status move is allowed. Entering done stamps completed_at, leaving clears it, and
  // setting the status a task already has keeps it.
  toUpdate: ({ project_id, assignee_id, due_date, ...rest }, now) => ({
    ...rest,
    ...(rest.status !== undefined
      ? { completedAt: sql`CASE WHEN ${tasks.status} = ${rest.status} THEN ${tasks.completedAt} ELSE ${rest.status === "done" ? now : null} END` }
      : {}),
    ...(project_id !== undefined ? { projectId: project_id } : {}),
    ...(assignee_id !== undefined ? { assigneeId: assignee_id } : {}),
    ...(due_date !== undefined ? { dueDate: due_date } : {}),
  }),
  references: [
    { field: "project_id", table: projects, what: "project" },
    { field: "assignee_id", table: employees, what: "employee" },
  ],
  softDelete: { column: tasks.deletedAt, set: (now) => ({ deletedAt: now }) },
  // Fired whenever a task enters done, including a task created as done.
  events: [{ type: "task.completed", on: "change", field: "status", column: tasks.status, to: "done", onCreate: true }],
  examples: {
    create: {
      title: "Draft the sitemap",
      project_id: 1,
      description: "Pages, navigation and redirects",
      priority: "high",
      assignee_id: 1,
      due_date: "2026-11-27",
    },
    update: { priority: "urgent", due_date: "2026-11-25" },
  },
  sortable: {
    id: tasks.id,
    due_date: { sql: sql`coalesce(${tasks.dueDate}, '9999-12-31')`, value: (row) => (row.dueDate as string | null) ?? "9999-12-31" },
    created_at: tasks.createdAt,
  },
  filters: {
    project_id: anyOf(tasks.projectId, integerValue, "Project id (comma list = any of)"),
    status: anyOf(tasks.status, z.enum(TASK_STATUSES), "Status (comma list = any of)"),
    priority: anyOf(tasks.priority, z.enum(TASK_PRIORITIES), "Priority (comma list = any of)"),
    assignee_id: anyOf(tasks.assigneeId, integerValue, "Assignee (employee id, comma list = any of)"),
    due_after: dateBound(tasks.dueDate, "after", "Due on or after this date (YYYY-MM-DD)"),
    due_before: dateBound(tasks.dueDate, "before", "Due on or before this date (YYYY-MM-DD)"),
  },
  searchable: [tasks.title, tasks.description],
  search: { code: 7, label: tasks.title, text: [tasks.description] },
  uniques: [],
};

const tags = ["Tasks"];

const setStatus = defineRoute(access.write("tasks"), {
  method: "put",
  path: "/tasks/{id}/status",
  operationId: "setTaskStatus",
  errors: ["conflict"],
  tags,
  summary: "Move a task on the board",
  description: "Any move is allowed. Entering done sets completed_at and fires task.completed; leaving done clears it. A deleted task → 404.",
  request: { params: IdParam, body: jsonBodyOf(z.strictObject({ status: z.enum(TASK_STATUSES) }).openapi("SetTaskStatus"), { status: "in_progress" }) },
  responses: { 200: jsonContent(envelope(Task), "The task") },
});

const restore = defineRoute(access.write("tasks"), {
  method: "post",
  path: "/tasks/{id}/restore",
  operationId: "restoreTask",
  tags,
  summary: "Bring back a deleted task",
  description: "Clears deleted_at: the task is back in lists and reads with its status and history. A task that is not deleted, or another workspace's → 404.",
  request: { params: IdParam },
  responses: { 200: jsonContent(envelope(Task), "The task, live again") },
});

export const taskActionRoutes = newRouter()
  .openapi(setStatus, async (c) => {
    const outcome = await runWrite(taskResource, tenantOf(c), { op: "update", id: c.req.valid("param").id, data: c.req.valid("json") });
    return c.json({ success: true as const, data: outcome.data as z.infer<typeof Task> }, 200);
  })
  .openapi(restore, async (c) => {
    const { id } = c.req.valid("param");
    const tenant = tenantOf(c);
    const [row] = await tenant.update(tasks, { deletedAt: null, updatedAt: Date.now() }, eq(tasks.id, id), isNotNull(tasks.deletedAt)).returning();
    const task = row ?? (await tenant.select(tasks, eq(tasks.id, id)).get());
    if (!task) throw ApiError.notFound("task");
    return c.json({ success: true as const, data: toTask(task) }, 200);
  });
