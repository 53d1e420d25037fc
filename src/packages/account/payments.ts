import { z } from "@hono/zod-openapi";
import { eq, inArray, sql } from "drizzle-orm";
import { access } from "../../platform/auth/permissions";
import { ApiError } from "../../platform/errors";
import { recordEvent } from "../../platform/events";
import { fields } from "../../platform/fields";
import { newRouter } from "../../platform/http/router";
import { defineRoute, envelope, IdParam, jsonBodyOf, jsonContent } from "../../platform/openapi";
import type { EventDeclaration } from "../../platform/packages";
import type { ResourceDefinition, Row } from "../../platform/resource/definition";
import { anyOf, integerValue, timeBound } from "../../platform/resource/filters";
import { Deleted } from "../../platform/resource/routes";
import { constraintError } from "../../platform/resource/writes";
import { sameWorkspace, type Tenant, tenantOf } from "../../platform/tenancy";
import { isoTimestamp } from "../../platform/time";
import { INVOICE_NEXT } from "./invoices";
import { INVOICE_STATUSES, type InvoiceStatus, invoices, PAYMENT_METHODS, payments } from "./schema";

const Payment = z
  .object({
    id: z.number().int(),
    invoice_id: z.number().int(),
    amount: z.number().int(),
    currency: z.string(),
    method: z.enum(PAYMENT_METHODS),
    processor: z.string().nullable(),
    processor_payment_id: z.string().nullable(),
    paid_at: fields.timestamp(),
    created_at: fields.timestamp(),
    updated_at: fields.timestamp(),
  })
  .openapi("Payment");

export const paymentEvents = {
  "payment.received": {
    description: "A payment was booked against an invoice",
    data: Payment.extend({
      invoice: z
        .object({ id: z.number().int(), number: z.string(), status: z.enum(INVOICE_STATUSES), amount_due: z.number().int() })
        .openapi({ description: "The invoice after the payment" }),
    }).openapi("PaymentReceived"),
  },
} satisfies Record<string, EventDeclaration>;

const CreatePayment = z
  .strictObject({
    invoice_id: fields.id(),
    amount: fields.amount().min(1, "must be greater than 0"),
    method: z.enum(PAYMENT_METHODS).optional().openapi({ description: "Default other" }),
    processor: fields.text(50).min(1).optional(),
    processor_payment_id: fields.text(255).min(1).optional(),
    paid_at: z.iso.datetime({ offset: true, message: "must be an ISO 8601 date-time" }).optional(),
  })
  .refine((input) => input.processor_payment_id === undefined || input.processor !== undefined, {
    message: "is required with processor_payment_id",
    path: ["processor"],
  })
  .openapi("CreatePayment");

type PaymentRow = Row<typeof payments>;

function toPayment(row: PaymentRow): z.infer<typeof Payment> {
  return {
    id: row.id,
    invoice_id: row.invoiceId,
    amount: row.amount,
    currency: row.currency,
    method: row.method,
    processor: row.processor,
    processor_payment_id: row.processorPaymentId,
    paid_at: isoTimestamp(row.paidAt),
    created_at: isoTimestamp(row.createdAt),
    updated_at: isoTimestamp(row.updatedAt),
  };
}

/** List and get are generic; payments are created and reversed by the routes below, never updated. */
export const paymentResource: ResourceDefinition<typeof payments, never, never, z.infer<typeof Payment>> = {
  name: "payments",
  singular: "payment",
  tags: ["Payments"],
  description: "Payments booked against sent invoices (never over-paying); deleting one reverses it.",
  table: payments,
  schemas: { output: Payment, create: CreatePayment as never, update: z.never() },
  ui: {
    title: "id",
    columns: ["id", "invoice_id", "amount", "method", "paid_at"],
    money: { amount: "currency" },
    deleteLabel: "Reverse",
    writes: { create: true, delete: true },
  },
  toOutput: toPayment,
  toInsert: () => {
    throw new Error("payments are created by recordPayment");
  },
  toUpdate: () => {
    throw new Error("payments cannot be updated");
  },
  // Payments are recorded and reversed through their own routes (routes/payments.ts).
  // No timeline route either: GET /payments/{id}/events would share its URL shape with Stripe's webhook
  // (POST /payments/stripe/{workspace_id}), which typed-client generators refuse as ambiguous. A payment's one
  // event, payment.received, still reaches webhooks; its page shows its dates.
  routes: { create: false, update: false, delete: false, batch: false, timeline: false },
  examples: {
    create: { invoice_id: 1, amount: 12550, method: "bank_transfer", paid_at: "2026-11-23T10:15:00Z" },
    update: {},
  },
  sortable: { id: payments.id, paid_at: payments.paidAt },
  filters: {
    invoice_id: anyOf(payments.invoiceId, integerValue, "Invoice id (comma list = any of)"),
    customer_id: {
      schema: integerValue.openapi({ type: "integer", minimum: 1 }),
      where: (customer: number) =>
        sql`${payments.invoiceId} IN (SELECT ${invoices.id} FROM ${invoices} WHERE ${sameWorkspace(invoices, payments)} AND ${invoices.customerId} = ${customer})`,
      description: "The customer whose invoices were paid",
    },
    paid_after: timeBound(payments.paidAt, "after", "Paid at or after this time (ISO 8601)"),
    paid_before: timeBound(payments.paidAt, "before", "Paid at or before this time (ISO 8601)"),
  },
  searchable: [payments.processorPaymentId],
  uniques: [{ constraint: "payments.processor_payment_id", field: "processor_payment_id" }],
};

const tags = ["Payments"];
const PAYABLE = ["sent", "partially_paid"] as const;

const createPayment = defineRoute(access.write("payments"), {
  method: "post",
  path: "/payments",
  operationId: "createPayment",
  errors: ["conflict", "invalid_transition"],
  tags,
  summary: "Record a payment against a sent or partially paid invoice",
  description:
    "amount must be > 0 and ≤ the invoice's amount_due, also under concurrent payments. The same processor_payment_id for a processor is never booked twice (409). Fires payment.received.",
  request: { body: jsonBodyOf(CreatePayment, { invoice_id: 1, amount: 12550, method: "bank_transfer", paid_at: "2026-11-23T10:15:00Z" }) },
  responses: { 201: jsonContent(envelope(Payment), "The payment") },
});

const reversePayment = defineRoute(access.write("payments"), {
  method: "delete",
  path: "/payments/{id}",
  operationId: "reversePayment",
  tags,
  summary: "Reverse a payment: the invoice's amount_paid and status are recomputed",
  description:
    "Deletes the payment and recomputes its invoice's amount_paid, amount_due and status in the same transaction (a paid invoice goes back to partially paid or sent). An unknown id, or another workspace's → 404.",
  request: { params: IdParam },
  responses: { 200: jsonContent(envelope(Deleted), "Reversed") },
});

/** The status an invoice has once `paid` (an SQL expression) of its total is paid. */
const statusFor = (paid: ReturnType<typeof sql>) =>
  sql`CASE WHEN ${paid} >= ${invoices.total} THEN 'paid' WHEN ${paid} > 0 THEN 'partially_paid' ELSE 'sent' END`;

/** A payment to book: what POST /payments takes, or what a processor's event says. */
export type PaymentInput = z.infer<typeof CreatePayment>;

/**
 * One batch, nothing read first, each step conditional on the one before: the invoice takes the amount
 * only if it is still payable and not over-paid (a single conditional UPDATE, safe under concurrent
 * payments) — or, with `exact`, only if the amount is exactly its balance — the payment row exists only
 * if it did, and the payment.received event only if the payment does.
 */
export function paymentStatements(tenant: Tenant, input: PaymentInput, now: number, options: { exact?: boolean } = {}) {
  const paidAt = input.paid_at ? Date.parse(input.paid_at) : now;
  const paid = sql`${invoices.amountPaid} + ${input.amount}`;
  const ofInvoice = (column: string) =>
    sql`(SELECT ${sql.identifier(column)} FROM ${invoices} WHERE ${tenant.scope(invoices, eq(invoices.id, input.invoice_id))})`;
  return [
    tenant
      .update(
        invoices,
        { amountPaid: paid, status: statusFor(paid), updatedAt: now },
        eq(invoices.id, input.invoice_id),
        inArray(invoices.status, [...PAYABLE]),
        options.exact ? sql`${paid} = ${invoices.total}` : sql`${paid} <= ${invoices.total}`,
      )
      .returning(),
    tenant
      .insertSelect(
        payments,
        sql`SELECT NULL, ${tenant.workspaceId}, ${input.invoice_id}, ${input.amount}, ${ofInvoice("currency")}, ${input.method ?? "other"}, ${input.processor ?? null}, ${input.processor_payment_id ?? null}, ${paidAt}, ${now}, ${now} WHERE changes() > 0`,
      )
      .returning(),
    recordEvent(
      tenant,
      {
        type: "payment.received",
        data: toPayment({
          id: 0,
          workspaceId: tenant.workspaceId,
          invoiceId: input.invoice_id,
          amount: input.amount,
          currency: "",
          method: input.method ?? "other",
          processor: input.processor ?? null,
          processorPaymentId: input.processor_payment_id ?? null,
          paidAt,
          createdAt: now,
          updatedAt: now,
        }),
        insertedInto: { table: payments, id: payments.id },
        computed: {
          currency: ofInvoice("currency"),
          invoice: sql`json((SELECT json_object('id', ${invoices.id}, 'number', ${invoices.number}, 'status', ${invoices.status}, 'amount_due', ${invoices.total} - ${invoices.amountPaid}) FROM ${invoices} WHERE ${tenant.scope(invoices, eq(invoices.id, input.invoice_id))}))`,
        },
        onlyIfChanged: true,
      },
      now,
    ),
  ] as const;
}

export const paymentActionRoutes = newRouter()
  .openapi(createPayment, async (c) => {
    const input = c.req.valid("json");
    const tenant = tenantOf(c);
    const refuse = (status: string, amountDue: number) => {
      if (!(PAYABLE as readonly string[]).includes(status)) {
        return new ApiError("invalid_transition", `Cannot record a payment on an invoice that is ${status}`, {
          details: [
            {
              path: "invoice_id",
              message: `the invoice is ${status}; payments need it sent or partially paid`,
              from: status,
              to: "paid",
              allowed: [...INVOICE_NEXT[status as InvoiceStatus]],
              allowed_from: [...PAYABLE],
            },
          ],
        });
      }
      return ApiError.validation([{ path: "amount", message: `must not exceed the invoice's amount due (${amountDue})` }]);
    };

    const now = Date.now();
    const [updated, inserted] = await tenant.batch(paymentStatements(tenant, input, now)).catch((error: unknown) => {
      throw constraintError(paymentResource, error) ?? error;
    });
    const payment = inserted[0];
    if (!updated[0] || !payment) {
      // Refused (missing, not payable, over-paid, or another payment got there first): explain against the invoice as it is now.
      const current = await tenant.select(invoices, eq(invoices.id, input.invoice_id)).get();
      if (!current) throw ApiError.validation([{ path: "invoice_id", message: "no invoice with this id in this workspace" }]);
      throw refuse(current.status, current.total - current.amountPaid);
    }
    return c.json({ success: true as const, data: toPayment(payment) }, 201);
  })
  .openapi(reversePayment, async (c) => {
    const { id } = c.req.valid("param");
    const tenant = tenantOf(c);
    const now = Date.now();
    const payment = tenant.selectFrom({ amount: payments.amount }, payments, eq(payments.id, id));
    const ofPayment = tenant.selectFrom({ invoiceId: payments.invoiceId }, payments, eq(payments.id, id));
    const paid = sql`${invoices.amountPaid} - (${payment})`;
    // The invoice gives the amount back and the payment goes, in one transaction; both are no-ops
    // when the payment does not exist in this workspace.
    const [, removed] = await tenant.batch([
      tenant.update(invoices, { amountPaid: paid, status: statusFor(paid), updatedAt: now }, sql`${invoices.id} = (${ofPayment})`),
      tenant.delete(payments, eq(payments.id, id)).returning({ id: payments.id }),
    ]);
    if (removed.length === 0) throw ApiError.notFound("payment");
    return c.json({ success: true as const, data: { id, deleted: true as const } }, 200);
  });
