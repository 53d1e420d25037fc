import { z } from "@hono/zod-openapi";
import { eq, notInArray, sql } from "drizzle-orm";
import { access } from "../../platform/auth/permissions";
import { ApiError } from "../../platform/errors";
import { isGuardFailure, isUniqueViolation } from "../../platform/errors-db";
import { newEventId } from "../../platform/events";
import { fields } from "../../platform/fields";
import { newRouter } from "../../platform/http/router";
import { defineRoute, envelope, IdParam, jsonContent } from "../../platform/openapi";
import type { ResourceDefinition, Row } from "../../platform/resource/definition";
import { anyOf, integerValue } from "../../platform/resource/filters";
import { rowJson } from "../../platform/resource/row-json";
import { selectRows } from "../../platform/resource/writes";
import { events } from "../../platform/schema";
import { qualified as q, type Statement, type Tenant, tenantOf } from "../../platform/tenancy";
import { isoTimestamp, today } from "../../platform/time";
import { Employee, employeeResource } from "../hrm/employees";
import { employees } from "../hrm/schema";
import { CANDIDATE_INPUT_STAGES, CANDIDATE_STAGES, candidates, jobOpenings } from "./schema";

const Candidate = z
  .object({
    id: z.number().int(),
    job_opening_id: z.number().int(),
    name: z.string(),
    email: z.string(),
    phone: z.string().nullable(),
    stage: z.enum(CANDIDATE_STAGES).openapi({ description: "hired is reached only through POST /candidates/{id}/hire, and is final" }),
    notes: z.string().nullable(),
    hired_at: fields.timestamp().nullable(),
    employee_id: z.number().int().nullable().openapi({ description: "The employee hiring created" }),
    created_at: fields.timestamp(),
    updated_at: fields.timestamp(),
  })
  .openapi("Candidate");

const writable = {
  job_opening_id: fields.id(),
  name: fields.name(),
  email: fields.email(),
  phone: fields.phone().nullable(),
  stage: z.enum(CANDIDATE_INPUT_STAGES),
  notes: fields.text(5000).nullable(),
};
const CreateCandidate = z.strictObject(writable).partial().required({ job_opening_id: true, name: true, email: true }).openapi("CreateCandidate");
const UpdateCandidate = z.strictObject(writable).partial().openapi("UpdateCandidate");

function toCandidate(row: Row<typeof candidates>): z.infer<typeof Candidate> {
  return {
    id: row.id,
    job_opening_id: row.jobOpeningId,
    name: row.name,
    email: row.email,
    phone: row.phone,
    stage: row.stage,
    notes: row.notes,
    hired_at: isoTimestamp(row.hiredAt),
    employee_id: row.employeeId,
    created_at: isoTimestamp(row.createdAt),
    updated_at: isoTimestamp(row.updatedAt),
  };
}

export const candidateResource: ResourceDefinition<
  typeof candidates,
  z.infer<typeof CreateCandidate>,
  z.infer<typeof UpdateCandidate>,
  z.infer<typeof Candidate>
> = {
  name: "candidates",
  singular: "candidate",
  tags: ["Candidates"],
  description: "Applicants to job openings, moved through applied → screening → interview → offer (or rejected), and hired into employees.",
  table: candidates,
  schemas: { output: Candidate, create: CreateCandidate, update: UpdateCandidate },
  ui: {
    title: "name",
    columns: ["name", "job_opening_id", "stage", "email", "hired_at"],
    multiline: ["notes"],
    board: { field: "stage", move: { kind: "update" } },
    actions: [
      {
        name: "hire",
        label: "Hire",
        method: "POST",
        path: "hire",
        when: (candidate) => !["hired", "rejected"].includes(String(candidate.stage)),
        confirm: "Hire this candidate? They become an employee, and the opening closes when it is filled.",
        primary: true,
        done: "Hired: they are now an employee.",
      },
    ],
  },
  toOutput: toCandidate,
  toInsert: (input) => ({
    jobOpeningId: input.job_opening_id,
    name: input.name,
    email: input.email,
    phone: input.phone ?? null,
    stage: input.stage ?? "applied",
    notes: input.notes ?? null,
    hiredAt: null,
    employeeId: null,
  }),
  toUpdate: ({ job_opening_id, ...rest }) => ({ ...rest, ...(job_opening_id !== undefined ? { jobOpeningId: job_opening_id } : {}) }),
  references: [{ field: "job_opening_id", table: jobOpenings, what: "job opening" }],
  // Any move among the input stages; a hired candidate's stage is final.
  transitions: [
    {
      field: "stage",
      column: candidates.stage,
      allowed: (from) => (from === "hired" ? [] : CANDIDATE_INPUT_STAGES.filter((stage) => stage !== from)),
      message: (from) => (from === "hired" ? "a hired candidate's stage cannot change" : `a ${from} candidate cannot move there`),
    },
  ],
  examples: {
    create: {
      name: "Brian Okafor",
      email: "brian.okafor@example.com",
      phone: "+447700900123",
      job_opening_id: 1,
      stage: "screening",
      notes: "Referred by Ana",
    },
    update: { stage: "interview" },
  },
  sortable: { id: candidates.id, name: candidates.name, created_at: candidates.createdAt },
  filters: {
    job_opening_id: anyOf(candidates.jobOpeningId, integerValue, "Job opening id (comma list = any of)"),
    stage: anyOf(candidates.stage, z.enum(CANDIDATE_STAGES), "Stage (comma list = any of)"),
  },
  searchable: [candidates.name, candidates.email, candidates.notes],
  search: { code: 9, label: candidates.name, text: [candidates.email, candidates.notes] },
  uniques: [{ constraint: "candidates.job_opening_id, candidates.email", field: "email" }],
};

const HireBody = z
  .strictObject({
    designation: fields.text(100).optional(),
    department: fields.text(100).optional().openapi({ description: "Default: the opening's department" }),
    branch: fields.text(100).optional().openapi({ description: "Default: the opening's branch" }),
    date_of_joining: fields.date().optional().openapi({ description: "Default: today" }),
  })
  .openapi("HireCandidate");

const Hired = z.object({ candidate: Candidate, employee: Employee }).openapi("HiredCandidate");

const hire = defineRoute(access.write("candidates"), {
  method: "post",
  path: "/candidates/{id}/hire",
  operationId: "hireCandidate",
  errors: ["conflict", "invalid_transition"],
  tags: ["Candidates"],
  summary: "Hire a candidate: the employee is created and the candidate marked hired, together",
  description:
    "Creates the employee (name, e-mail and phone copied; department and branch default to the opening's), marks the candidate hired with hired_at and employee_id, fires employee.onboarded once, and closes the opening once its hires reach positions — in one transaction. Hiring again or hiring a rejected candidate → 409 invalid_transition; an e-mail an employee already uses → 409 conflict. Concurrent hires of one candidate: exactly one succeeds.",
  request: {
    params: IdParam,
    body: {
      required: false,
      content: { "application/json": { schema: HireBody, example: { designation: "Backend Engineer", date_of_joining: "2026-12-01" } } },
    },
  },
  responses: { 201: jsonContent(envelope(Hired), "The hired candidate and the new employee") },
});

/**
 * The hire as one D1 batch. The employee INSERT … SELECT reads the candidate and its opening and
 * inserts nothing unless the candidate may be hired (not hired, not rejected) — the guard after it then
 * aborts the batch — so two concurrent hires cannot both pass.
 */
function hireStatements(tenant: Tenant, candidateId: number, input: z.infer<typeof HireBody>, now: number): Statement[] {
  const candidate = tenant.scope(candidates, eq(q(candidates.id), candidateId));
  const employeeOf = sql`(SELECT ${q(candidates.employeeId)} FROM ${candidates} WHERE ${candidate})`;
  const openingOf = sql`(SELECT ${q(candidates.jobOpeningId)} FROM ${candidates} WHERE ${candidate})`;
  tenant.eventRecorded();
  return [
    // Columns in the table's order: id, workspace_id, name, email, phone, department, designation, branch, status, date_of_joining, created_at, updated_at.
    tenant.insertSelect(
      employees,
      sql`SELECT NULL, ${candidates.workspaceId}, ${candidates.name}, ${candidates.email}, ${candidates.phone},
             coalesce(${input.department ?? null}, ${jobOpenings.department}), ${input.designation ?? null},
             coalesce(${input.branch ?? null}, ${jobOpenings.branch}), 'active', ${input.date_of_joining ?? today(now)}, ${now}, ${now}
      FROM ${candidates} JOIN ${jobOpenings} ON ${tenant.scope(jobOpenings, eq(jobOpenings.id, candidates.jobOpeningId))}
      WHERE ${tenant.scope(candidates, eq(candidates.id, candidateId), notInArray(candidates.stage, ["hired", "rejected"]))}`,
    ),
    tenant.assertChanged(`hire:${candidateId}`),
    tenant.update(candidates, { stage: "hired", hiredAt: now, employeeId: sql`last_insert_rowid()`, updatedAt: now }, eq(candidates.id, candidateId)),
    tenant.insertSelect(
      events,
      sql`SELECT ${newEventId()}, ${tenant.workspaceId}, 'employee.onboarded', ${rowJson(employeeResource)}, NULL, ${now}, NULL FROM ${employees} WHERE ${tenant.scope(employees, sql`${employees.id} = ${employeeOf}`)}`,
    ),
    tenant.update(
      jobOpenings,
      { status: "closed", updatedAt: now },
      sql`${jobOpenings.id} = ${openingOf}`,
      eq(jobOpenings.status, "open"),
      sql`(SELECT count(*) FROM ${candidates} WHERE ${tenant.scope(candidates, sql`${q(candidates.jobOpeningId)} = ${q(jobOpenings.id)}`, eq(candidates.stage, "hired"))}) >= ${q(jobOpenings.positions)}`,
    ),
    selectRows(candidateResource, tenant, eq(candidates.id, candidateId)),
    selectRows(employeeResource, tenant, sql`${employees.id} = ${employeeOf}`),
  ];
}

export const candidateActionRoutes = newRouter().openapi(hire, async (c) => {
  const { id } = c.req.valid("param");
  const input = c.req.valid("json") ?? {};
  const tenant = tenantOf(c);
  let results: unknown[];
  try {
    results = await tenant.batch(hireStatements(tenant, id, input, Date.now()) as [Statement, ...Statement[]]);
  } catch (error) {
    if (isUniqueViolation(error, "employees.email")) {
      throw new ApiError("conflict", "email: an employee already uses this e-mail address", {
        details: [{ path: "email", message: "already used by an employee" }],
      });
    }
    if (!isGuardFailure(error)) throw error;
    const current = await tenant.select(candidates, eq(candidates.id, id)).get();
    if (!current) throw ApiError.notFound("candidate");
    if (current.stage === "hired" || current.stage === "rejected") {
      throw new ApiError("invalid_transition", `stage: a ${current.stage} candidate cannot be hired`, {
        details: [
          {
            path: "stage",
            message: `a ${current.stage} candidate cannot be hired`,
            from: current.stage,
            to: "hired",
            allowed: current.stage === "rejected" ? ["applied", "screening", "interview", "offer"] : [],
          },
        ],
      });
    }
    throw new ApiError("conflict", "The candidate changed while this request ran; nothing was written. Read it again and retry.");
  }
  const [candidate] = results.at(-2) as Row<typeof candidates>[];
  const [employee] = results.at(-1) as Row<typeof employees>[];
  return c.json({ success: true as const, data: { candidate: toCandidate(candidate!), employee: employeeResource.toOutput(employee!) } }, 201);
});
