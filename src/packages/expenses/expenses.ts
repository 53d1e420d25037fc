import { z } from "@hono/zod-openapi";
import { eq, sql } from "drizzle-orm";
import { ApiError } from "../../platform/errors";
import { fields } from "../../platform/fields";
import type { EventDeclaration } from "../../platform/packages";
import type { ResourceDefinition, Row } from "../../platform/resource/definition";
import { anyOf, anyText, dateBound, integerValue } from "../../platform/resource/filters";
import { qualified as q, type Tenant } from "../../platform/tenancy";
import { isoTimestamp } from "../../platform/time";
import { invoicingSettings } from "../account/schema";
import { employees } from "../hrm/schema";
import { projects } from "../taskly/schema";
import { EXPENSE_STATUSES, type ExpenseStatus, expenses, vendors } from "./schema";

const Receipt = z
  .object({
    content_type: z.string().openapi({ description: "As its bytes say (image/png, image/jpeg, application/pdf…), not as it was sent" }),
    size: z.number().int(),
    filename: z.string().nullable(),
    uploaded_at: fields.timestamp(),
    url: z.string().openapi({ description: "GET it here (members of the workspace)" }),
  })
  .openapi("Receipt");

export const Expense = z
  .object({
    id: z.number().int(),
    vendor_id: z.number().int().nullable(),
    category: z.string(),
    description: z.string().nullable(),
    amount: z.number().int().openapi({ description: "Minor units of currency" }),
    currency: z.string(),
    date: z.string(),
    project_id: z.number().int().nullable(),
    billable: z.boolean().openapi({ description: "To be billed to the project's customer (needs project_id)" }),
    employee_id: z.number().int().nullable().openapi({ description: "Who spent it" }),
    status: z.enum(EXPENSE_STATUSES),
    receipt: Receipt.nullable(),
    created_at: fields.timestamp(),
    updated_at: fields.timestamp(),
  })
  .openapi("Expense");

export const expenseEvents = {
  "expense.created": { description: "An expense was submitted", data: Expense },
  "expense.approved": { description: "An admin approved an expense", data: Expense },
} satisfies Record<string, EventDeclaration>;

const billableNeedsProject = (expense: { billable?: boolean; project_id?: number | null }, context: z.RefinementCtx) => {
  if (expense.billable === true && (expense.project_id === undefined || expense.project_id === null))
    context.addIssue({ code: "custom", path: ["project_id"], message: "is required for a billable expense (the project it is billed to)" });
};

const writable = {
  vendor_id: fields.id().nullable(),
  category: fields.text(80).min(1, "must not be empty"),
  description: fields.text(500).nullable(),
  amount: fields.amount().refine((amount) => amount > 0, "must be greater than 0"),
  currency: fields.currency(),
  date: fields.date(),
  project_id: fields.id().nullable(),
  billable: z.boolean(),
  employee_id: fields.id().nullable(),
};
const CreateExpense = z
  .strictObject(writable)
  .partial()
  .required({ category: true, amount: true, date: true })
  .superRefine(billableNeedsProject)
  .openapi("CreateExpense");
// A billable change names its project in the same body (the row is not read first).
const UpdateExpense = z
  .strictObject(writable)
  .partial()
  .superRefine((update, context) => {
    if (update.billable === true || update.project_id === null)
      billableNeedsProject({ billable: update.billable ?? true, project_id: update.project_id }, context);
  })
  .openapi("UpdateExpense");

type ExpenseRow = Row<typeof expenses>;

export function toExpense(row: ExpenseRow): z.infer<typeof Expense> {
  return {
    id: row.id,
    vendor_id: row.vendorId,
    category: row.category,
    description: row.description,
    amount: row.amount,
    currency: row.currency,
    date: row.date,
    project_id: row.projectId,
    billable: row.billable,
    employee_id: row.employeeId,
    status: row.status,
    receipt:
      row.receiptKey && row.receiptContentType
        ? {
            content_type: row.receiptContentType,
            size: row.receiptSize ?? 0,
            filename: row.receiptName,
            uploaded_at: isoTimestamp(row.receiptUploadedAt)!,
            url: `/api/v1/expenses/${row.id}/receipt`,
          }
        : null,
    created_at: isoTimestamp(row.createdAt),
    updated_at: isoTimestamp(row.updatedAt),
  };
}

/** A project or an employee named while its package (taskly, hrm) is switched off for the workspace → 400. */
function linkedPackagesOn(input: { project_id?: number | null; employee_id?: number | null }, tenant: Tenant): void {
  const problems = [
    ...(input.project_id != null && !tenant.isEnabled("taskly") ? [{ path: "project_id", message: "projects are switched off (the taskly package)" }] : []),
    ...(input.employee_id != null && !tenant.isEnabled("hrm") ? [{ path: "employee_id", message: "employees are switched off (the hrm package)" }] : []),
  ];
  if (problems.length > 0) throw ApiError.validation(problems);
}

/** Where an expense's receipt is kept in R2: keyed by workspace and expense, never listed. */
export const receiptKey = (workspaceId: number, id: number) => `w/${workspaceId}/expenses/${id}/receipt`;

/** Where the approval actions work from (admins only). */
export const EXPENSE_NEXT: Record<"approve" | "reject" | "reimburse", { from: ExpenseStatus[]; to: ExpenseStatus }> = {
  approve: { from: ["submitted", "rejected"], to: "approved" },
  reject: { from: ["submitted", "approved"], to: "rejected" },
  reimburse: { from: ["approved"], to: "reimbursed" },
};

export const expenseResource: ResourceDefinition<typeof expenses, z.infer<typeof CreateExpense>, z.infer<typeof UpdateExpense>, z.infer<typeof Expense>> = {
  name: "expenses",
  singular: "expense",
  tags: ["Expenses"],
  description:
    "Money spent: submitted by members, approved, rejected or reimbursed by admins, with a receipt (an image or PDF, checked by its bytes) kept in R2.",
  table: expenses,
  schemas: { output: Expense, create: CreateExpense, update: UpdateExpense },
  ui: {
    title: "category",
    columns: ["date", "category", "vendor_id", "amount", "status", "employee_id"],
    money: { amount: "currency" },
    hiddenInDetail: ["receipt"],
    actions: [
      {
        name: "approve",
        label: "Approve",
        method: "POST",
        path: "approve",
        when: (e) => EXPENSE_NEXT.approve.from.includes(e.status as ExpenseStatus),
        primary: true,
        done: "The expense is approved.",
      },
      {
        name: "reject",
        label: "Reject",
        method: "POST",
        path: "reject",
        when: (e) => EXPENSE_NEXT.reject.from.includes(e.status as ExpenseStatus),
        confirm: "Reject this expense?",
        done: "The expense is rejected.",
      },
      {
        name: "reimburse",
        label: "Mark reimbursed",
        method: "POST",
        path: "reimburse",
        when: (e) => e.status === "approved",
        done: "The expense is marked reimbursed.",
      },
    ],
  },
  toOutput: toExpense,
  toInsert: (input, _now, tenant) => {
    linkedPackagesOn(input, tenant);
    return {
      vendorId: input.vendor_id ?? null,
      category: input.category,
      description: input.description ?? null,
      amount: input.amount,
      // The vendor's currency, then the workspace's (Settings → Invoicing), then USD.
      currency:
        input.currency ??
        sql`coalesce(${input.vendor_id ? sql`(SELECT ${vendors.currency} FROM ${vendors} WHERE ${tenant.scope(vendors, eq(vendors.id, input.vendor_id))})` : sql`NULL`}, (SELECT ${invoicingSettings.currency} FROM ${invoicingSettings} WHERE ${tenant.scope(invoicingSettings)}), 'USD')`,
      date: input.date,
      projectId: input.project_id ?? null,
      billable: input.billable ?? false,
      employeeId: input.employee_id ?? null,
      status: "submitted" as const,
      receiptKey: null,
      receiptContentType: null,
      receiptSize: null,
      receiptName: null,
      receiptUploadedAt: null,
    };
  },
  toUpdate: ({ vendor_id, project_id, employee_id, ...rest }, _now, tenant) => {
    linkedPackagesOn({ project_id, employee_id }, tenant);
    return {
      ...rest,
      ...(vendor_id !== undefined ? { vendorId: vendor_id } : {}),
      ...(project_id !== undefined ? { projectId: project_id } : {}),
      ...(employee_id !== undefined ? { employeeId: employee_id } : {}),
    };
  },
  references: [
    { field: "vendor_id", table: vendors, what: "vendor" },
    { field: "project_id", table: projects, what: "project" },
    { field: "employee_id", table: employees, what: "employee" },
  ],
  locks: [
    {
      fields: ["amount", "currency", "date", "category", "vendor_id"],
      column: expenses.status,
      onlyWhen: ["submitted", "rejected"],
      message: (locked, current) => `${locked.join(", ")}: an expense that is ${current} cannot change; reject it first`,
      detail: "is locked once the expense is approved",
    },
  ],
  deletable: {
    column: expenses.status,
    onlyWhen: ["submitted", "rejected"],
    message: (current) => `Only submitted or rejected expenses can be deleted; this one is ${current}.`,
  },
  events: [{ type: "expense.created", on: "create" }],
  outputSql: {
    // The receipt as the API shows it, for event payloads rendered in SQL.
    receipt: sql`json(CASE WHEN ${q(expenses.receiptKey)} IS NULL THEN NULL ELSE json_object('content_type', ${q(expenses.receiptContentType)}, 'size', ${q(expenses.receiptSize)}, 'filename', ${q(expenses.receiptName)}, 'uploaded_at', strftime('%Y-%m-%dT%H:%M:%fZ', ${q(expenses.receiptUploadedAt)} / 1000.0, 'unixepoch'), 'url', '/api/v1/expenses/' || ${q(expenses.id)} || '/receipt') END)`,
  },
  // A deleted expense's receipt goes from R2 too (its key is the workspace's and the expense's).
  afterDelete: (env, tenant, id) => env.FILES.delete(receiptKey(tenant.workspaceId, id)),
  // Receipts live beside the rows: one at a time, so none is left behind.
  routes: { batch: false },
  examples: {
    create: {
      vendor_id: 1,
      category: "Travel",
      description: "Train to the client workshop",
      amount: 8900,
      currency: "USD",
      date: "2026-11-20",
      project_id: 1,
      billable: true,
      employee_id: 1,
    },
    update: { description: "Train to the client workshop (return)", amount: 17800 },
  },
  sortable: { id: expenses.id, date: expenses.date, amount: expenses.amount, created_at: expenses.createdAt },
  filters: {
    status: anyOf(expenses.status, z.enum(EXPENSE_STATUSES), "Status (comma list = any of)"),
    category: anyText(expenses.category, "Category (any case; comma list = any of)"),
    vendor_id: anyOf(expenses.vendorId, integerValue, "Vendor id (comma list = any of)"),
    project_id: anyOf(expenses.projectId, integerValue, "Project id (comma list = any of)"),
    employee_id: anyOf(expenses.employeeId, integerValue, "Employee id (comma list = any of)"),
    date_from: dateBound(expenses.date, "after", "On or after this date (YYYY-MM-DD)"),
    date_to: dateBound(expenses.date, "before", "On or before this date (YYYY-MM-DD)"),
  },
  searchable: [expenses.category, expenses.description],
  uniques: [],
};
