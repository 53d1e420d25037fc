import { z } from "@hono/zod-openapi";
import { and, desc, eq, inArray, sql } from "drizzle-orm";
import { principalOf } from "../../platform/auth/caller";
import { access } from "../../platform/auth/permissions";
import { ApiError } from "../../platform/errors";
import { recordEvent } from "../../platform/events";
import { fields } from "../../platform/fields";
import { publicOrigin } from "../../platform/http/origin";
import { newRouter } from "../../platform/http/router";
import { enqueueMail, queuedMessage, queueMail } from "../../platform/mail/outbox";
import { MAIL_STATUSES, mailAttempts, mailMessages } from "../../platform/mail/schema";
import { defineRoute, envelope, IdParam, jsonContent } from "../../platform/openapi";
import { createPublicLink, newPublicToken } from "../../platform/public-links";
import { ListMeta } from "../../platform/resource/routes";
import { rowJson } from "../../platform/resource/row-json";
import { readBack } from "../../platform/resource/writes";
import { directoryOf, tenantOf } from "../../platform/tenancy";
import { isoTimestamp } from "../../platform/time";
import { invoicePdf } from "./document-pdf";
import { invoiceView, loadInvoice } from "./invoice-view";
import { Invoice, invoiceResource, SENDABLE, toInvoice, transitionError } from "./invoices";
import { customers, type InvoiceStatus, invoices } from "./schema";

const tags = ["Invoices"];

const SendBody = z.strictObject({ to: fields.email().optional() }).openapi("SendInvoice", { example: { to: "ap@initech.example" } });

const send = defineRoute(access.write("invoices"), {
  method: "post",
  path: "/invoices/{id}/send",
  operationId: "sendInvoice",
  errors: ["invalid_transition"],
  tags,
  summary: "E-mail an invoice to its customer (draft → sent), or send it again",
  description:
    "Queues an e-mail (HTML and text, the PDF attached) to `to`, else the customer's billing e-mail, else its e-mail; the mail queue sends it and retries (see `delivery` and GET /invoices/{id}/deliveries). The first send locks the items and gives the invoice its public page (`public_url`). Sending a sent or partially paid invoice again e-mails it again and updates sent_at; a paid or void one → 409. Fires invoice.sent.",
  request: { params: IdParam, body: { required: false, content: { "application/json": { schema: SendBody, example: { to: "ap@initech.example" } } } } },
  responses: { 200: jsonContent(envelope(Invoice), "The sent invoice, its delivery queued") },
});

const Attempt = z
  .object({ attempt: z.number().int(), outcome: z.enum(["sent", "failed"]), error: z.string().nullable(), at: fields.timestamp() })
  .openapi("MailAttempt");
const Message = z
  .object({
    id: z.number().int(),
    kind: z.enum(["invoice", "reminder"]).openapi({ description: "The invoice itself, or an overdue reminder" }),
    to: z.string(),
    status: z.enum(MAIL_STATUSES),
    attempts: z.number().int(),
    last_error: z.string().nullable(),
    sent_at: fields.timestamp().nullable(),
    created_at: fields.timestamp(),
    history: z.array(Attempt).openapi({ description: "Every attempt, first to last, with what the mail service answered" }),
  })
  .openapi("InvoiceMessage");

const deliveries = defineRoute(access.read("invoices"), {
  method: "get",
  path: "/invoices/{id}/deliveries",
  operationId: "listInvoiceDeliveries",
  tags,
  summary: "Every e-mail of an invoice and every attempt to send it",
  description:
    "The invoice's messages, newest first (the invoice each time it was sent, and its overdue reminders), each with its status and the history of its attempts. An unknown id, or another workspace's → 404.",
  request: { params: IdParam },
  responses: { 200: jsonContent(z.object({ success: z.literal(true), data: z.array(Message), meta: ListMeta }), "The messages") },
});

const pdf = defineRoute(access.read("invoices"), {
  method: "get",
  path: "/invoices/{id}/pdf",
  operationId: "getInvoicePdf",
  tags,
  summary: "The invoice as a PDF (A4)",
  description:
    "Drawn in the worker: the same numbers as the API, amounts in the invoice's currency. Drafts too (a preview). The customer's copy is at public_url + .pdf.",
  request: { params: IdParam },
  responses: { 200: { description: "The PDF", content: { "application/pdf": { schema: { type: "string", format: "binary" } } } } },
});

const remind = defineRoute(access.write("invoices"), {
  method: "post",
  path: "/invoices/{id}/remind",
  operationId: "remindInvoice",
  errors: ["invalid_transition"],
  tags,
  summary: "E-mail a payment reminder now",
  description:
    "Queues a reminder (the PDF attached, the public link) to the address the invoice was last sent to, beside the automatic ones 3, 7 and 14 days after the due date. Only a sent or partially paid invoice → otherwise 409.",
  request: { params: IdParam },
  responses: { 200: jsonContent(envelope(Invoice), "The invoice; its reminder is in GET /invoices/{id}/deliveries") },
});

const MESSAGE_LIMIT = 100;

export const invoiceSendingRoutes = newRouter()
  .openapi(send, async (c) => {
    const { id } = c.req.valid("param");
    const body = c.req.valid("json") ?? {};
    const tenant = tenantOf(c);
    const principal = principalOf(c);
    const now = Date.now();
    // The recipient defaults to the customer's billing e-mail, then its e-mail, read in the same UPDATE.
    const customerEmail = sql`(SELECT coalesce(${customers.billingEmail}, ${customers.email}) FROM ${customers} WHERE ${tenant.scope(customers, sql`${customers.id} = ${invoices.customerId}`)})`;
    const recipient = body.to ? sql`${body.to}` : customerEmail;
    // The public page's token: this one, unless the invoice has had one since its first send.
    const candidate = newPublicToken();
    const candidateUrl = `${publicOrigin(c)}/i/${candidate}`;
    // One batch, nothing read first: the invoice is sent only if it still may be and has a recipient; the
    // e-mail is queued and the event recorded only if it was.
    const [sent, queued, , [row]] = await tenant.batch([
      tenant
        .update(
          invoices,
          {
            status: sql`CASE WHEN ${invoices.status} = 'draft' THEN 'sent' ELSE ${invoices.status} END`,
            sentAt: now,
            sentTo: recipient,
            publicToken: sql`coalesce(${invoices.publicToken}, ${candidate})`,
            publicUrl: sql`coalesce(${invoices.publicUrl}, ${candidateUrl})`,
            updatedAt: now,
          },
          eq(invoices.id, id),
          inArray(invoices.status, SENDABLE),
          sql`${recipient} IS NOT NULL`,
        )
        .returning({ id: invoices.id, publicToken: invoices.publicToken }),
      queueMail(
        tenant,
        {
          kind: "invoice",
          subjectId: id,
          to: sql`(SELECT ${invoices.sentTo} FROM ${invoices} WHERE ${tenant.scope(invoices, eq(invoices.id, id))})`,
          replyTo: principal.user.email,
          fromName: principal.workspace.name,
        },
        now,
        { onlyIfChanged: true },
      ),
      recordEvent(
        tenant,
        {
          type: "invoice.sent",
          dataSql: sql`(SELECT ${rowJson(invoiceResource)} FROM ${invoices} WHERE ${tenant.scope(invoices, eq(invoices.id, id))})`,
          onlyIfChanged: true,
        },
        now,
      ),
      readBack(invoiceResource, tenant, id),
    ]);
    if (sent.length === 0) {
      if (!row) throw ApiError.notFound("invoice");
      const status = (row as { status: InvoiceStatus }).status;
      if (!SENDABLE.includes(status)) throw transitionError(status, "send", SENDABLE);
      throw ApiError.validation([{ path: "to", message: "is required: the customer has no billing or contact e-mail" }]);
    }
    // First send: the directory learns which workspace the new token opens (the only other database written).
    if (sent[0]!.publicToken === candidate) await createPublicLink(directoryOf(c), candidate, "invoice", id, now);
    await enqueueMail(c.env, principal.shard, queued);
    return c.json({ success: true as const, data: toInvoice(row as Parameters<typeof toInvoice>[0]) }, 200);
  })
  .openapi(remind, async (c) => {
    const { id } = c.req.valid("param");
    const tenant = tenantOf(c);
    const principal = principalOf(c);
    const now = Date.now();
    const open = and(eq(invoices.id, id), inArray(invoices.status, ["sent", "partially_paid"]), sql`${invoices.sentTo} IS NOT NULL`);
    const [queued, [row]] = await tenant.batch([
      tenant
        .insertSelect(
          mailMessages,
          sql`SELECT ${queuedMessage(
            {
              workspaceId: tenant.workspaceId,
              kind: "invoice_reminder",
              subjectId: id,
              to: sql`${invoices.sentTo}`,
              replyTo: principal.user.email,
              fromName: principal.workspace.name,
            },
            now,
          )} FROM ${invoices} WHERE ${tenant.scope(invoices, open)}`,
        )
        .returning({ id: mailMessages.id, workspaceId: mailMessages.workspaceId }),
      readBack(invoiceResource, tenant, id),
    ]);
    if (!row) throw ApiError.notFound("invoice");
    if (queued.length === 0) {
      const status = (row as { status: InvoiceStatus }).status;
      const message = `Cannot remind of an invoice that is ${status}`;
      throw new ApiError("invalid_transition", message, { details: [{ path: "status", message, from: status, allowed_from: ["sent", "partially_paid"] }] });
    }
    await enqueueMail(c.env, principal.shard, queued);
    return c.json({ success: true as const, data: toInvoice(row as Parameters<typeof toInvoice>[0]) }, 200);
  })
  .openapi(deliveries, async (c) => {
    const { id } = c.req.valid("param");
    const tenant = tenantOf(c);
    const ofInvoice = and(inArray(mailMessages.kind, ["invoice", "invoice_reminder"]), eq(mailMessages.subjectId, id));
    const [exists, messages, attempts] = await tenant.batch([
      tenant.selectFrom({ id: invoices.id }, invoices, eq(invoices.id, id)),
      tenant.select(mailMessages, ofInvoice).orderBy(desc(mailMessages.id)).limit(MESSAGE_LIMIT),
      tenant
        .selectFrom(
          { messageId: mailAttempts.messageId, attempt: mailAttempts.attempt, outcome: mailAttempts.outcome, error: mailAttempts.error, at: mailAttempts.at },
          mailAttempts,
          sql`${mailAttempts.messageId} IN (SELECT ${mailMessages.id} FROM ${mailMessages} WHERE ${tenant.scope(mailMessages, ofInvoice)})`,
        )
        .orderBy(mailAttempts.messageId, mailAttempts.attempt),
    ]);
    if (exists.length === 0) throw ApiError.notFound("invoice");
    const history = Map.groupBy(attempts, (attempt) => attempt.messageId);
    const data = messages.map((message) => ({
      id: message.id,
      kind: message.kind === "invoice" ? ("invoice" as const) : ("reminder" as const),
      to: message.to,
      status: message.status,
      attempts: message.attempts,
      last_error: message.lastError,
      sent_at: isoTimestamp(message.sentAt),
      created_at: isoTimestamp(message.createdAt),
      history: (history.get(message.id) ?? []).map((attempt) => ({
        attempt: attempt.attempt,
        outcome: attempt.outcome,
        error: attempt.error,
        at: isoTimestamp(attempt.at),
      })),
    }));
    return c.json({ success: true as const, data, meta: { limit: MESSAGE_LIMIT, has_more: false, next_cursor: null } }, 200);
  })
  .openapi(pdf, async (c) => {
    const { id } = c.req.valid("param");
    const found = await loadInvoice(tenantOf(c), id);
    if (!found) throw ApiError.notFound("invoice");
    const view = invoiceView(found.invoice, found.customer, principalOf(c).workspace.name);
    return pdfResponse(await invoicePdf(view), view.number, "private, no-cache");
  });

/** A PDF response, shown in the browser and saved under the invoice's number. */
export function pdfResponse(bytes: Uint8Array, number: string, cacheControl: string): Response {
  return new Response(bytes as Uint8Array<ArrayBuffer>, {
    status: 200,
    headers: {
      "Content-Type": "application/pdf",
      "Content-Disposition": `inline; filename="${number}.pdf"`,
      "Cache-Control": cacheControl,
      "X-Content-Type-Options": "nosniff",
    },
  });
}
