import { z } from "@hono/zod-openapi";
import { fields } from "../../platform/fields";
import type { EventDeclaration } from "../../platform/packages";
import type { ResourceDefinition, Row } from "../../platform/resource/definition";
import { anyOf, anyText, dateBound } from "../../platform/resource/filters";
import { isoTimestamp, today } from "../../platform/time";
import { EMPLOYEE_STATUSES, employees } from "./schema";

export const Employee = z
  .object({
    id: z.number().int(),
    name: z.string(),
    email: z.string(),
    phone: z.string().nullable(),
    department: z.string().nullable(),
    designation: z.string().nullable(),
    branch: z.string().nullable(),
    status: z.enum(EMPLOYEE_STATUSES),
    date_of_joining: z.string(),
    created_at: fields.timestamp(),
    updated_at: fields.timestamp(),
  })
  .openapi("Employee");

export const employeeEvents = {
  "employee.onboarded": { description: "An employee was created (directly, in a batch, or by hiring a candidate)", data: Employee },
} satisfies Record<string, EventDeclaration>;

const writable = {
  name: fields.name(),
  email: fields.email(),
  phone: fields.phone().nullable(),
  department: fields.text(100).nullable(),
  designation: fields.text(100).nullable(),
  branch: fields.text(100).nullable(),
  status: z.enum(EMPLOYEE_STATUSES),
  date_of_joining: fields.date(),
};
const CreateEmployee = z.strictObject(writable).partial().required({ name: true, email: true }).openapi("CreateEmployee");
const UpdateEmployee = z.strictObject(writable).partial().openapi("UpdateEmployee");

function toEmployee(row: Row<typeof employees>): z.infer<typeof Employee> {
  return {
    id: row.id,
    name: row.name,
    email: row.email,
    phone: row.phone,
    department: row.department,
    designation: row.designation,
    branch: row.branch,
    status: row.status,
    date_of_joining: row.dateOfJoining,
    created_at: isoTimestamp(row.createdAt),
    updated_at: isoTimestamp(row.updatedAt),
  };
}

export const employeeResource: ResourceDefinition<
  typeof employees,
  z.infer<typeof CreateEmployee>,
  z.infer<typeof UpdateEmployee>,
  z.infer<typeof Employee>
> = {
  name: "employees",
  singular: "employee",
  tags: ["Employees"],
  description: "The workforce: department, designation, branch, status and joining date; creating one fires employee.onboarded.",
  table: employees,
  schemas: { output: Employee, create: CreateEmployee, update: UpdateEmployee },
  ui: { title: "name", columns: ["name", "department", "designation", "branch", "status"] },
  toOutput: toEmployee,
  toInsert: (input, now) => ({
    name: input.name,
    email: input.email,
    phone: input.phone ?? null,
    department: input.department ?? null,
    designation: input.designation ?? null,
    branch: input.branch ?? null,
    status: input.status ?? "active",
    dateOfJoining: input.date_of_joining ?? today(now),
  }),
  toUpdate: ({ date_of_joining, ...rest }) => ({ ...rest, ...(date_of_joining !== undefined ? { dateOfJoining: date_of_joining } : {}) }),
  events: [{ type: "employee.onboarded", on: "create" }],
  examples: {
    create: {
      name: "Ana Souza",
      email: "ana.souza@example.com",
      phone: "+351912345678",
      department: "Engineering",
      designation: "Backend Engineer",
      branch: "Lisbon",
      date_of_joining: "2026-09-01",
    },
    update: { designation: "Senior Backend Engineer" },
  },
  sortable: { id: employees.id, name: employees.name, date_of_joining: employees.dateOfJoining },
  filters: {
    department: anyText(employees.department, "Department (any case; comma list = any of)"),
    designation: anyText(employees.designation, "Designation (any case; comma list = any of)"),
    branch: anyText(employees.branch, "Branch (any case; comma list = any of)"),
    status: anyOf(employees.status, z.enum(EMPLOYEE_STATUSES), "Status (comma list = any of)"),
    joined_after: dateBound(employees.dateOfJoining, "after", "Joined on or after this date (YYYY-MM-DD)"),
    joined_before: dateBound(employees.dateOfJoining, "before", "Joined on or before this date (YYYY-MM-DD)"),
  },
  searchable: [employees.name, employees.email, employees.department, employees.designation],
  search: { code: 3, label: employees.name, text: [employees.email, employees.department, employees.designation] },
  uniques: [{ constraint: "employees.email", field: "email" }],
};
