import { z } from "@hono/zod-openapi";
import { and, eq, inArray, isNotNull, lt, not, sql } from "drizzle-orm";
import { access } from "../../platform/auth/permissions";
import { ApiError } from "../../platform/errors";
import { fields } from "../../platform/fields";
import { newRouter } from "../../platform/http/router";
import { MAIL_STATUSES, mailMessages } from "../../platform/mail/schema";
import { defineRoute, envelope, IdParam, jsonContent } from "../../platform/openapi";
import type { EventDeclaration } from "../../platform/packages";
import type { ResourceDefinition, Row } from "../../platform/resource/definition";
import { anyOf, booleanFilter, dateBound, integerValue, numberBound } from "../../platform/resource/filters";
import { loadRow, readBack } from "../../platform/resource/writes";
import { qualified, sameWorkspace, tenantOf } from "../../platform/tenancy";
import { clock, isoTimestamp, today } from "../../platform/time";
import { toMajorUnits } from "../../platform/web/form-body";
import { InvoicePanel } from "./invoice-panel";
import { LineItems, totalsOf } from "./lines";
import { customers, INVOICE_STATUSES, type InvoiceStatus, invoiceCounters, invoices, invoicingSettings } from "./schema";

/** An invoice's latest e-mail (queued → sent, or failed after its retries), as `invoice.delivery` shows it. */
export const Delivery = z
  .object({
    status: z.enum(MAIL_STATUSES),
    to: z.string(),
    attempts: z.number().int(),
    last_error: z.string().nullable(),
    sent_at: fields.timestamp().nullable(),
  })
  .openapi("InvoiceDelivery");

const q = qualified;
/** The latest invoice e-mail of the invoice being read, as JSON (a correlated subquery: no query per row). */
const deliverySql = sql`(SELECT json_object('status', ${q(mailMessages.status)}, 'to', ${q(mailMessages.to)}, 'attempts', ${q(mailMessages.attempts)}, 'last_error', ${q(mailMessages.lastError)}, 'sent_at', strftime('%Y-%m-%dT%H:%M:%fZ', ${q(mailMessages.sentAt)} / 1000.0, 'unixepoch')) FROM ${mailMessages} WHERE ${sameWorkspace(mailMessages, invoices)} AND ${q(mailMessages.kind)} = 'invoice' AND ${q(mailMessages.subjectId)} = ${q(invoices.id)} ORDER BY ${q(mailMessages.id)} DESC LIMIT 1)`;

const Line = z
  .object({
    product_id: z.number().int().optional().openapi({ description: "The catalogue product the line was made from, when it named one" }),
    description: z.string(),
    quantity: z.number(),
    unit_amount: z.number().int(),
    tax_rate: z.number(),
    amount: z.number().int().openapi({ description: "round(quantity × unit_amount), half away from zero" }),
    tax_amount: z.number().int().openapi({ description: "round(amount × tax_rate / 100), half away from zero" }),
  })
  .openapi("InvoiceLine");

export const Invoice = z
  .object({
    id: z.number().int(),
    number: z.string().openapi({ example: "INV-000001" }),
    customer_id: z.number().int(),
    status: z.enum(INVOICE_STATUSES),
    currency: z.string(),
    issue_date: z.string(),
    due_date: z.string().nullable(),
    items: z.array(Line),
    notes: z.string().nullable(),
    subtotal: z.number().int(),
    tax_total: z.number().int(),
    total: z.number().int(),
    amount_paid: z.number().int(),
    amount_due: z.number().int(),
    sent_at: fields.timestamp().nullable(),
    sent_to: z.string().nullable(),
    delivery: Delivery.nullable().openapi({ description: "The e-mail of the latest send (null until the invoice is first sent)" }),
    public_url: z
      .string()
      .nullable()
      .openapi({ description: "The customer's page for this invoice (no login; its PDF at the same URL + .pdf); null until first sent" }),
    viewed_at: fields.timestamp().nullable().openapi({ description: "When the customer first opened the public page" }),
    created_at: fields.timestamp(),
    updated_at: fields.timestamp(),
  })
  .openapi("Invoice");

export const invoiceEvents = {
  "invoice.created": { description: "An invoice was created (as a draft, with its number)", data: Invoice },
  "invoice.sent": { description: "An invoice was sent (or sent again) to its customer: its e-mail is queued", data: Invoice },
  "invoice.viewed": { description: "The customer opened the invoice's public page for the first time", data: Invoice },
} satisfies Record<string, EventDeclaration>;

const writable = {
  customer_id: fields.id(),
  currency: fields.currency(),
  issue_date: fields.date(),
  due_date: fields.date().nullable(),
  items: LineItems,
  notes: fields.text(2000).nullable(),
};
const CreateInvoice = z.strictObject(writable).partial().required({ customer_id: true, items: true }).openapi("CreateInvoice");
const UpdateInvoice = z.strictObject(writable).partial().openapi("UpdateInvoice");
type InvoiceRow = Row<typeof invoices> & { delivery?: string | z.infer<typeof Delivery> | null };

const DRAFT_ONLY_FIELDS = ["items", "currency", "customer_id"] as const;

export function toInvoice(row: InvoiceRow): z.infer<typeof Invoice> {
  return {
    id: row.id,
    number: row.number,
    customer_id: row.customerId,
    status: row.status,
    currency: row.currency,
    issue_date: row.issueDate,
    due_date: row.dueDate,
    items: row.items,
    notes: row.notes,
    subtotal: row.subtotal,
    tax_total: row.taxTotal,
    total: row.total,
    amount_paid: row.amountPaid,
    amount_due: row.total - row.amountPaid,
    sent_at: isoTimestamp(row.sentAt),
    sent_to: row.sentTo,
    delivery: typeof row.delivery === "string" ? JSON.parse(row.delivery) : (row.delivery ?? null),
    public_url: row.publicUrl,
    viewed_at: isoTimestamp(row.viewedAt),
    created_at: isoTimestamp(row.createdAt),
    updated_at: isoTimestamp(row.updatedAt),
  };
}

const outstanding = (now: number) => and(inArray(invoices.status, ["sent", "partially_paid"]), isNotNull(invoices.dueDate), lt(invoices.dueDate, today(now)))!;

export const invoiceResource: ResourceDefinition<typeof invoices, z.infer<typeof CreateInvoice>, z.infer<typeof UpdateInvoice>, z.infer<typeof Invoice>> = {
  name: "invoices",
  singular: "invoice",
  tags: ["Invoices"],
  description: "Invoices with lines computed in integer minor units: draft → sent → partially paid → paid, or void.",
  table: invoices,
  schemas: { output: Invoice, create: CreateInvoice, update: UpdateInvoice },
  ui: {
    title: "number",
    columns: ["number", "customer_id", "status", "issue_date", "due_date", "total", "amount_due"],
    money: {
      subtotal: "currency",
      tax_total: "currency",
      total: "currency",
      amount_paid: "currency",
      amount_due: "currency",
      unit_amount: "currency",
      amount: "currency",
      tax_amount: "currency",
    },
    replaces: { form: true },
    panel: (invoice) => InvoicePanel({ record: invoice }),
    hiddenInDetail: ["delivery", "public_url", "viewed_at"],
    actions: [
      {
        name: "send",
        label: "Send",
        method: "POST",
        path: "send",
        fields: ["to"],
        when: (invoice) => SENDABLE.includes(invoice.status as InvoiceStatus),
        primary: true,
        done: "The invoice was sent.",
      },
      {
        name: "remind",
        label: "Send reminder",
        method: "POST",
        path: "remind",
        when: (invoice) => ["sent", "partially_paid"].includes(String(invoice.status)) && Boolean(invoice.sent_to),
        done: "A reminder is on its way.",
      },
      {
        name: "void",
        label: "Void",
        method: "POST",
        path: "void",
        when: (invoice) => VOIDABLE.includes(invoice.status as InvoiceStatus) && invoice.amount_paid === 0,
        confirm: "Void this invoice? It stays in the list, marked void, and can no longer be paid.",
        done: "The invoice is void.",
      },
    ],
    links: [
      {
        label: "Record a payment",
        href: (invoice) =>
          `/app/payments/new?invoice_id=${invoice.id}&amount=${toMajorUnits(Number(invoice.amount_due), String(invoice.currency))}&currency=${invoice.currency}`,
        when: (invoice) => ["sent", "partially_paid"].includes(String(invoice.status)),
        writes: "payments",
      },
    ],
  },
  toOutput: toInvoice,
  // The number comes from the workspace's counter (in its shard), bumped earlier in the same batch:
  // sequential per workspace, never repeated, also under concurrent creates (D1 runs one batch at a time).
  beforeCreate: (tenant) => [
    tenant.insert(invoiceCounters, { last: 1 }).onConflictDoUpdate({ target: invoiceCounters.workspaceId, set: { last: sql`${invoiceCounters.last} + 1` } }),
  ],
  toInsert: (input, now, tenant) => ({
    customerId: input.customer_id,
    number: sql`(SELECT 'INV-' || printf('%06d', ${invoiceCounters.last}) FROM ${invoiceCounters} WHERE ${tenant.scope(invoiceCounters)})`,
    // The customer's currency, then the workspace's (Settings → Invoicing), then USD.
    currency:
      input.currency ??
      sql`coalesce((SELECT ${customers.currency} FROM ${customers} WHERE ${tenant.scope(customers, eq(customers.id, input.customer_id))}), (SELECT ${invoicingSettings.currency} FROM ${invoicingSettings} WHERE ${tenant.scope(invoicingSettings)}), 'USD')`,
    issueDate: input.issue_date ?? today(now),
    dueDate: input.due_date ?? null,
    notes: input.notes ?? null,
    status: "draft" as const,
    amountPaid: 0,
    sentAt: null,
    sentTo: null,
    publicToken: null,
    publicUrl: null,
    viewedAt: null,
    remindersSent: 0,
    ...totalsOf(input.items),
  }),
  toUpdate: ({ customer_id, issue_date, due_date, items, ...rest }) => ({
    ...rest,
    ...(customer_id !== undefined ? { customerId: customer_id } : {}),
    ...(issue_date !== undefined ? { issueDate: issue_date } : {}),
    ...(due_date !== undefined ? { dueDate: due_date } : {}),
    ...(items !== undefined ? totalsOf(items) : {}),
  }),
  references: [{ field: "customer_id", table: customers, what: "customer" }],
  locks: [
    {
      fields: DRAFT_ONLY_FIELDS,
      column: invoices.status,
      onlyWhen: ["draft"],
      message: (locked, current) => `${locked.join(", ")}: only a draft invoice can change ${locked.join(", ")}; this one is ${current}`,
      detail: "is locked once the invoice is sent",
    },
  ],
  deletable: {
    column: invoices.status,
    onlyWhen: ["draft"],
    message: (current) => `Only draft invoices can be deleted; this one is ${current}. Void it instead.`,
  },
  ordered: [{ first: { field: "issue_date", column: invoices.issueDate }, last: { field: "due_date", column: invoices.dueDate } }],
  events: [{ type: "invoice.created", on: "create" }],
  computed: { delivery: deliverySql },
  outputSql: { amount_due: sql`${invoices.total} - ${invoices.amountPaid}`, delivery: sql`json(${deliverySql})` },
  // Invoice lines and numbering make a batch of invoices a poor fit: one at a time.
  routes: { batch: false },
  examples: {
    create: {
      customer_id: 1,
      currency: "USD",
      issue_date: "2026-11-23",
      due_date: "2026-12-23",
      items: [
        { description: "Website design", quantity: 1, unit_amount: 250000, tax_rate: 20 },
        { description: "Hosting (months)", quantity: 12, unit_amount: 1500 },
      ],
      notes: "Thank you for your business.",
    },
    update: { due_date: "2027-01-15", notes: "Payment terms: 30 days." },
  },
  sortable: {
    id: invoices.id,
    issue_date: invoices.issueDate,
    // NULL due dates sort last ascending (first descending), through an index on the same expression.
    due_date: { sql: sql`coalesce(${invoices.dueDate}, '9999-12-31')`, value: (row) => (row.dueDate as string | null) ?? "9999-12-31" },
    total: invoices.total,
  },
  filters: {
    status: anyOf(invoices.status, z.enum(INVOICE_STATUSES), "Status (comma list = any of)"),
    customer_id: anyOf(invoices.customerId, integerValue, "Customer id (comma list = any of)"),
    overdue: booleanFilter(
      (overdue) => (overdue ? outstanding(clock.now()) : not(outstanding(clock.now()))),
      "true: sent or partially paid and past due_date; false: all others",
    ),
    issued_after: dateBound(invoices.issueDate, "after", "Issued on or after this date (YYYY-MM-DD)"),
    issued_before: dateBound(invoices.issueDate, "before", "Issued on or before this date (YYYY-MM-DD)"),
    due_after: dateBound(invoices.dueDate, "after", "Due on or after this date (YYYY-MM-DD)"),
    due_before: dateBound(invoices.dueDate, "before", "Due on or before this date (YYYY-MM-DD)"),
    total_min: numberBound(invoices.total, "min", "Total at least this (minor units)"),
    total_max: numberBound(invoices.total, "max", "Total at most this (minor units)"),
  },
  searchable: [invoices.number, invoices.notes],
  search: { code: 8, label: invoices.number, text: [invoices.notes] },
  summed: { field: "items", what: "invoice totals", column: invoices.total, currency: invoices.currency, kind: "invoices.total" },
  uniques: [],
};

/** Where an invoice can go from each status: send, payments, void. */
export const INVOICE_NEXT: Record<InvoiceStatus, readonly InvoiceStatus[]> = {
  draft: ["sent", "void"],
  sent: ["partially_paid", "paid", "void"],
  partially_paid: ["paid"],
  paid: [],
  void: [],
};

/** 409 invalid_transition: the status it is in, the one the action leads to, where it could go, and from where the action works. */
export function transitionError(status: InvoiceStatus, action: "send" | "void", allowedFrom: InvoiceStatus[]): ApiError {
  const message = `Cannot ${action} an invoice that is ${status}`;
  return new ApiError("invalid_transition", message, {
    details: [
      { path: "status", message, from: status, to: action === "send" ? "sent" : "void", allowed: [...INVOICE_NEXT[status]], allowed_from: allowedFrom },
    ],
  });
}

const tags = ["Invoices"];

const voidInvoice = defineRoute(access.write("invoices"), {
  method: "post",
  path: "/invoices/{id}/void",
  operationId: "voidInvoice",
  errors: ["invalid_transition"],
  tags,
  summary: "Void a draft or sent invoice with nothing paid",
  description:
    "Marks the invoice void: it no longer counts as outstanding. Only a draft, or a sent invoice with nothing paid; anything else → 409 invalid_transition (details name the states it could be voided from).",
  request: { params: IdParam },
  responses: { 200: jsonContent(envelope(Invoice), "The void invoice") },
});

export const SENDABLE: InvoiceStatus[] = ["draft", "sent", "partially_paid"];
const VOIDABLE: InvoiceStatus[] = ["draft", "sent"];

export const invoiceActionRoutes = newRouter().openapi(voidInvoice, async (c) => {
  const { id } = c.req.valid("param");
  const tenant = tenantOf(c);
  const now = Date.now();
  const [voided, [row]] = await tenant.batch([
    tenant
      .update(invoices, { status: "void", updatedAt: now }, eq(invoices.id, id), inArray(invoices.status, VOIDABLE), eq(invoices.amountPaid, 0))
      .returning({ id: invoices.id }),
    readBack(invoiceResource, tenant, id),
  ]);
  if (voided.length === 0 || !row) {
    const current = await loadRow(invoiceResource, tenant, id);
    if (!current) throw ApiError.notFound("invoice");
    throw transitionError(current.status as InvoiceStatus, "void", VOIDABLE);
  }
  return c.json({ success: true as const, data: toInvoice(row as InvoiceRow) }, 200);
});
