import { z } from "@hono/zod-openapi";
import { fields } from "../../platform/fields";
import type { ResourceDefinition, Row } from "../../platform/resource/definition";
import { anyOf, anyText } from "../../platform/resource/filters";
import { isoTimestamp } from "../../platform/time";
import { JOB_OPENING_STATUSES, jobOpenings } from "./schema";

const JobOpening = z
  .object({
    id: z.number().int(),
    title: z.string(),
    department: z.string().nullable(),
    branch: z.string().nullable(),
    description: z.string().nullable(),
    positions: z.number().int().openapi({ description: "How many hires fill it; it closes when its hired candidates reach this" }),
    status: z.enum(JOB_OPENING_STATUSES),
    created_at: fields.timestamp(),
    updated_at: fields.timestamp(),
  })
  .openapi("JobOpening");

const writable = {
  title: fields.name(),
  department: fields.text(100).nullable(),
  branch: fields.text(100).nullable(),
  description: fields.text(5000).nullable(),
  positions: z.number().int().min(1).max(10_000),
  status: z.enum(JOB_OPENING_STATUSES),
};
const CreateJobOpening = z.strictObject(writable).partial().required({ title: true }).openapi("CreateJobOpening");
const UpdateJobOpening = z.strictObject(writable).partial().openapi("UpdateJobOpening");

export function toJobOpening(row: Row<typeof jobOpenings>): z.infer<typeof JobOpening> {
  return {
    id: row.id,
    title: row.title,
    department: row.department,
    branch: row.branch,
    description: row.description,
    positions: row.positions,
    status: row.status,
    created_at: isoTimestamp(row.createdAt),
    updated_at: isoTimestamp(row.updatedAt),
  };
}

export const jobOpeningResource: ResourceDefinition<
  typeof jobOpenings,
  z.infer<typeof CreateJobOpening>,
  z.infer<typeof UpdateJobOpening>,
  z.infer<typeof JobOpening>
> = {
  name: "job-openings",
  singular: "job opening",
  tags: ["Job openings"],
  description: "Open positions: department, branch and how many hires fill them; an opening closes itself when its hires reach `positions`.",
  table: jobOpenings,
  schemas: { output: JobOpening, create: CreateJobOpening, update: UpdateJobOpening },
  ui: { title: "title", columns: ["title", "department", "branch", "positions", "status"], multiline: ["description"] },
  toOutput: toJobOpening,
  toInsert: (input) => ({
    title: input.title,
    department: input.department ?? null,
    branch: input.branch ?? null,
    description: input.description ?? null,
    positions: input.positions ?? 1,
    status: input.status ?? "open",
  }),
  toUpdate: (input) => input,
  examples: {
    create: {
      title: "Backend Engineer",
      department: "Engineering",
      branch: "Lisbon",
      description: "TypeScript on Cloudflare Workers",
      positions: 2,
      status: "open",
    },
    update: { positions: 3 },
  },
  sortable: { id: jobOpenings.id, title: jobOpenings.title, created_at: jobOpenings.createdAt },
  filters: {
    status: anyOf(jobOpenings.status, z.enum(JOB_OPENING_STATUSES), "Status (comma list = any of)"),
    department: anyText(jobOpenings.department, "Department (any case; comma list = any of)"),
    branch: anyText(jobOpenings.branch, "Branch (any case; comma list = any of)"),
  },
  searchable: [jobOpenings.title, jobOpenings.department, jobOpenings.description],
  uniques: [],
};
