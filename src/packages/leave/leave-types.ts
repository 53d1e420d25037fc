import { z } from "@hono/zod-openapi";
import { eq } from "drizzle-orm";
import { fields } from "../../platform/fields";
import type { ResourceDefinition } from "../../platform/resource/definition";
import { booleanFilter } from "../../platform/resource/filters";
import { isoTimestamp } from "../../platform/time";
import { leaveTypes } from "./schema";

const LeaveType = z
  .object({
    id: z.number().int(),
    name: z.string(),
    days_per_year: z.number().openapi({ description: "Working days each employee may take of it in a calendar year (a multiple of 0.5)", example: 25 }),
    paid: z.boolean(),
    created_at: fields.timestamp(),
    updated_at: fields.timestamp(),
  })
  .openapi("LeaveType");

const writable = {
  name: fields.name(),
  days_per_year: z
    .number()
    .min(0, "must not be negative")
    .max(366, "must be at most 366")
    .refine((days) => Number.isInteger(days * 2), "must be a whole or half number of days (a multiple of 0.5)"),
  paid: z.boolean(),
};
const CreateLeaveType = z.strictObject(writable).partial().required({ name: true, days_per_year: true }).openapi("CreateLeaveType");
const UpdateLeaveType = z.strictObject(writable).partial().openapi("UpdateLeaveType");

export const leaveTypeResource: ResourceDefinition<
  typeof leaveTypes,
  z.infer<typeof CreateLeaveType>,
  z.infer<typeof UpdateLeaveType>,
  z.infer<typeof LeaveType>
> = {
  name: "leave-types",
  singular: "leave type",
  tags: ["Leave types"],
  description: "Kinds of time off (annual leave, sick leave…), each with the working days a year every employee may take of it.",
  table: leaveTypes,
  schemas: { output: LeaveType, create: CreateLeaveType, update: UpdateLeaveType },
  ui: { title: "name", columns: ["name", "days_per_year", "paid"] },
  toOutput: (row) => ({
    id: row.id,
    name: row.name,
    days_per_year: row.daysPerYear,
    paid: row.paid,
    created_at: isoTimestamp(row.createdAt),
    updated_at: isoTimestamp(row.updatedAt),
  }),
  toInsert: (input) => ({ name: input.name, daysPerYear: input.days_per_year, paid: input.paid ?? true }),
  toUpdate: ({ days_per_year, ...rest }) => ({ ...rest, ...(days_per_year !== undefined ? { daysPerYear: days_per_year } : {}) }),
  notes: {
    update: "A new days_per_year applies to approvals from now on; leave already approved stays approved.",
    delete: "A leave type that requests name cannot be deleted (409 conflict).",
  },
  examples: {
    create: { name: "Annual leave", days_per_year: 25, paid: true },
    update: { days_per_year: 27.5 },
  },
  sortable: { id: leaveTypes.id, name: leaveTypes.name, created_at: leaveTypes.createdAt },
  filters: {
    paid: booleanFilter((paid) => eq(leaveTypes.paid, paid), "true: paid leave types only; false: unpaid only"),
  },
  searchable: [leaveTypes.name],
  uniques: [],
};
