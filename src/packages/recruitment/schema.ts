import { index, integer, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { timestamps, workspaces } from "../../platform/schema";
import { employees } from "../hrm/schema";

export const JOB_OPENING_STATUSES = ["open", "closed"] as const;

export const jobOpenings = sqliteTable(
  "job_openings",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    workspaceId: integer("workspace_id")
      .notNull()
      .references(() => workspaces.id),
    title: text("title").notNull(),
    department: text("department"),
    branch: text("branch"),
    description: text("description"),
    positions: integer("positions").notNull().default(1),
    status: text("status", { enum: JOB_OPENING_STATUSES }).notNull().default("open"),
    ...timestamps,
  },
  (table) => [
    index("job_openings_workspace_id_idx").on(table.workspaceId, table.id),
    index("job_openings_workspace_updated_idx").on(table.workspaceId, table.updatedAt, table.id),
    index("job_openings_workspace_title_idx").on(table.workspaceId, table.title, table.id),
    index("job_openings_workspace_created_idx").on(table.workspaceId, table.createdAt, table.id),
    index("job_openings_workspace_status_idx").on(table.workspaceId, table.status, table.id),
    index("job_openings_workspace_department_idx").on(table.workspaceId, table.department, table.id),
  ],
);

/** The stages a candidate may be put in; `hired` is reached only through POST /candidates/{id}/hire. */
export const CANDIDATE_INPUT_STAGES = ["applied", "screening", "interview", "offer", "rejected"] as const;
export const CANDIDATE_STAGES = [...CANDIDATE_INPUT_STAGES, "hired"] as const;

export const candidates = sqliteTable(
  "candidates",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    workspaceId: integer("workspace_id")
      .notNull()
      .references(() => workspaces.id),
    jobOpeningId: integer("job_opening_id")
      .notNull()
      .references(() => jobOpenings.id),
    name: text("name").notNull(),
    email: text("email").notNull(),
    phone: text("phone"),
    stage: text("stage", { enum: CANDIDATE_STAGES }).notNull().default("applied"),
    notes: text("notes"),
    hiredAt: integer("hired_at"),
    employeeId: integer("employee_id").references(() => employees.id, { onDelete: "set null" }),
    ...timestamps,
  },
  (table) => [
    uniqueIndex("candidates_workspace_opening_email_unique").on(table.workspaceId, table.jobOpeningId, table.email),
    index("candidates_workspace_id_idx").on(table.workspaceId, table.id),
    index("candidates_workspace_updated_idx").on(table.workspaceId, table.updatedAt, table.id),
    index("candidates_workspace_name_idx").on(table.workspaceId, table.name, table.id),
    index("candidates_workspace_created_idx").on(table.workspaceId, table.createdAt, table.id),
    index("candidates_workspace_opening_idx").on(table.workspaceId, table.jobOpeningId, table.stage),
    index("candidates_workspace_stage_idx").on(table.workspaceId, table.stage, table.id),

    index("candidates_employee_idx").on(table.employeeId),
  ],
);
