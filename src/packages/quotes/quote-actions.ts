import { z } from "@hono/zod-openapi";
import { eq, getTableColumns, inArray, isNull, type SQL, sql } from "drizzle-orm";
import { principalOf } from "../../platform/auth/caller";
import { access, denial, isAllowed } from "../../platform/auth/permissions";
import { ApiError } from "../../platform/errors";
import { recordEvent } from "../../platform/events";
import { fields } from "../../platform/fields";
import { publicOrigin } from "../../platform/http/origin";
import { newRouter } from "../../platform/http/router";
import { enqueueMail, queueMail } from "../../platform/mail/outbox";
import { defineRoute, envelope, IdParam, jsonContent } from "../../platform/openapi";
import { createPublicLink, newPublicToken } from "../../platform/public-links";
import { rowJson } from "../../platform/resource/row-json";
import { readBack } from "../../platform/resource/writes";
import { platformOf } from "../../platform/services";
import { directoryOf, type Tenant, tenantOf } from "../../platform/tenancy";
import { today } from "../../platform/time";
import { documentPdf } from "../account/document-pdf";
import { pdfResponse } from "../account/invoice-sending";
import { invoiceResource } from "../account/invoices";
import { customers, invoiceCounters, invoices } from "../account/schema";
import { loadQuote, quoteView } from "./quote-view";
import { DECIDABLE, Quote, quoteResource, SENDABLE, toQuote } from "./quotes";
import { type QuoteStatus, quotes } from "./schema";

const tags = ["Quotes"];
type QuoteRow = Parameters<typeof toQuote>[0];

/** 409 invalid_transition: the state it is in and where the action works from. */
export function quoteTransitionError(status: QuoteStatus, action: string, allowedFrom: readonly QuoteStatus[]): ApiError {
  const message =
    status === "invoiced" && action === "invoice" ? "This quote was already turned into an invoice" : `Cannot ${action} a quote that is ${status}`;
  return new ApiError("invalid_transition", message, { details: [{ path: "status", message, from: status, allowed_from: [...allowedFrom] }] });
}

const mine = (tenant: Tenant, id: number, ...conditions: SQL[]) =>
  sql`(SELECT ${rowJson(quoteResource)} FROM ${quotes} WHERE ${tenant.scope(quotes, eq(quotes.id, id), ...conditions)})`;

const SendBody = z.strictObject({ to: fields.email().optional() }).openapi("SendQuote", { example: { to: "buyer@acme.example" } });

const send = defineRoute(access.write("quotes"), {
  method: "post",
  path: "/quotes/{id}/send",
  operationId: "sendQuote",
  errors: ["invalid_transition"],
  tags,
  summary: "E-mail a quote to its customer (draft → sent), or send it again",
  description:
    "Queues an e-mail (HTML and text, the PDF attached) to `to`, else the customer's billing e-mail, else its e-mail, through the same mail queue as invoices. The first send gives the quote its public page (`public_url`, /q/{token}) where the customer accepts or declines it. Only a draft or sent quote → otherwise 409. Fires quote.sent.",
  request: { params: IdParam, body: { required: false, content: { "application/json": { schema: SendBody, example: { to: "buyer@acme.example" } } } } },
  responses: { 200: jsonContent(envelope(Quote), "The sent quote, its e-mail queued") },
});

const decide = (action: "accept" | "decline") =>
  defineRoute(access.write("quotes"), {
    method: "post",
    path: `/quotes/{id}/${action}`,
    operationId: `${action}Quote`,
    errors: ["invalid_transition"],
    tags,
    summary: action === "accept" ? "Mark a quote accepted (for the customer)" : "Mark a quote declined (for the customer)",
    description: `What the customer's Accept / Decline buttons do, for when they answered by phone or e-mail. Only a draft or sent quote → otherwise 409. Fires quote.${action === "accept" ? "accepted" : "declined"}.`,
    request: { params: IdParam },
    responses: { 200: jsonContent(envelope(Quote), action === "accept" ? "The accepted quote" : "The declined quote") },
  });

const toInvoice = defineRoute(access.write("quotes"), {
  method: "post",
  path: "/quotes/{id}/invoice",
  operationId: "invoiceQuote",
  errors: ["invalid_transition", "forbidden"],
  tags,
  summary: "Turn an accepted quote into a draft invoice",
  description:
    "Creates a draft invoice for the quote's customer with the same lines, currency and totals, numbered as every invoice, and marks the quote `invoiced` with its `invoice_id` — in one batch, once: a quote that is not accepted, or was already invoiced → 409. Needs write access to invoices too. Fires invoice.created.",
  request: { params: IdParam },
  responses: { 201: jsonContent(envelope(Quote), "The invoiced quote; its invoice is invoice_id") },
});

const pdf = defineRoute(access.read("quotes"), {
  method: "get",
  path: "/quotes/{id}/pdf",
  operationId: "getQuotePdf",
  tags,
  summary: "The quote as a PDF (A4)",
  description: "Drawn in the worker as invoices are: the same numbers as the API. Drafts too (a preview). The customer's copy is at public_url + .pdf.",
  request: { params: IdParam },
  responses: { 200: { description: "The PDF", content: { "application/pdf": { schema: { type: "string", format: "binary" } } } } },
});

/**
 * A decision (accept, decline) as statements for one batch: the status changes only from where it may,
 * and its event is recorded only if it did. Shared by the API and the customer's page.
 */
export function decisionStatements(tenant: Tenant, id: number, action: "accept" | "decline", now: number, extra: SQL[] = []) {
  const status = action === "accept" ? ("accepted" as const) : ("declined" as const);
  return [
    tenant
      .update(quotes, { status, decidedAt: now, updatedAt: now }, eq(quotes.id, id), inArray(quotes.status, DECIDABLE), ...extra)
      .returning({ id: quotes.id }),
    recordEvent(tenant, { type: `quote.${status}`, dataSql: mine(tenant, id), onlyIfChanged: true }, now),
  ] as const;
}

async function decided(tenant: Tenant, id: number, action: "accept" | "decline") {
  const [changed, , [row]] = await tenant.batch([...decisionStatements(tenant, id, action, Date.now()), readBack(quoteResource, tenant, id)]);
  if (!row) throw ApiError.notFound("quote");
  if (changed.length === 0) throw quoteTransitionError((row as QuoteRow).status, action, DECIDABLE);
  return toQuote(row as QuoteRow);
}

/** The new invoice's columns, in its table's order, read from the accepted quote (INSERT … SELECT). */
function invoiceFromQuote(tenant: Tenant, now: number): SQL {
  const values: Record<keyof ReturnType<typeof getTableColumns<typeof invoices>>, SQL> = {
    id: sql`NULL`,
    workspaceId: sql`${tenant.workspaceId}`,
    customerId: sql`${quotes.customerId}`,
    number: sql`(SELECT 'INV-' || printf('%06d', ${invoiceCounters.last}) FROM ${invoiceCounters} WHERE ${tenant.scope(invoiceCounters)})`,
    currency: sql`${quotes.currency}`,
    issueDate: sql`${today(now)}`,
    dueDate: sql`NULL`,
    items: sql`${quotes.items}`,
    notes: sql`${quotes.notes}`,
    status: sql`'draft'`,
    subtotal: sql`${quotes.subtotal}`,
    taxTotal: sql`${quotes.taxTotal}`,
    total: sql`${quotes.total}`,
    amountPaid: sql`0`,
    sentAt: sql`NULL`,
    sentTo: sql`NULL`,
    publicToken: sql`NULL`,
    publicUrl: sql`NULL`,
    viewedAt: sql`NULL`,
    remindersSent: sql`0`,
    createdAt: sql`${now}`,
    updatedAt: sql`${now}`,
  };
  return sql.join(
    Object.keys(getTableColumns(invoices)).map((key) => values[key as keyof typeof values]),
    sql`, `,
  );
}

export const quoteActionRoutes = newRouter()
  .openapi(send, async (c) => {
    const { id } = c.req.valid("param");
    const body = c.req.valid("json") ?? {};
    const tenant = tenantOf(c);
    const principal = principalOf(c);
    const now = Date.now();
    const customerEmail = sql`(SELECT coalesce(${customers.billingEmail}, ${customers.email}) FROM ${customers} WHERE ${tenant.scope(customers, sql`${customers.id} = ${quotes.customerId}`)})`;
    const recipient = body.to ? sql`${body.to}` : customerEmail;
    const candidate = newPublicToken();
    const candidateUrl = `${publicOrigin(c)}/q/${candidate}`;
    // One batch, as an invoice's send: sent only if it may be and has a recipient; mail and event only then.
    const [sent, queued, , [row]] = await tenant.batch([
      tenant
        .update(
          quotes,
          {
            status: "sent",
            sentAt: now,
            sentTo: recipient,
            publicToken: sql`coalesce(${quotes.publicToken}, ${candidate})`,
            publicUrl: sql`coalesce(${quotes.publicUrl}, ${candidateUrl})`,
            updatedAt: now,
          },
          eq(quotes.id, id),
          inArray(quotes.status, SENDABLE),
          sql`${recipient} IS NOT NULL`,
        )
        .returning({ id: quotes.id, publicToken: quotes.publicToken }),
      queueMail(
        tenant,
        {
          kind: "quote",
          subjectId: id,
          to: sql`(SELECT ${quotes.sentTo} FROM ${quotes} WHERE ${tenant.scope(quotes, eq(quotes.id, id))})`,
          replyTo: principal.user.email,
          fromName: principal.workspace.name,
        },
        now,
        { onlyIfChanged: true },
      ),
      recordEvent(tenant, { type: "quote.sent", dataSql: mine(tenant, id), onlyIfChanged: true }, now),
      readBack(quoteResource, tenant, id),
    ]);
    if (sent.length === 0) {
      if (!row) throw ApiError.notFound("quote");
      const status = (row as QuoteRow).status;
      if (!SENDABLE.includes(status)) throw quoteTransitionError(status, "send", SENDABLE);
      throw ApiError.validation([{ path: "to", message: "is required: the customer has no billing or contact e-mail" }]);
    }
    if (sent[0]!.publicToken === candidate) await createPublicLink(directoryOf(c), candidate, "quote", id, now);
    await enqueueMail(c.env, principal.shard, queued);
    return c.json({ success: true as const, data: toQuote(row as QuoteRow) }, 200);
  })
  .openapi(decide("accept"), async (c) => c.json({ success: true as const, data: await decided(tenantOf(c), c.req.valid("param").id, "accept") }, 200))
  .openapi(decide("decline"), async (c) => c.json({ success: true as const, data: await decided(tenantOf(c), c.req.valid("param").id, "decline") }, 200))
  .openapi(toInvoice, async (c) => {
    const { id } = c.req.valid("param");
    const tenant = tenantOf(c);
    // It writes an invoice: the caller must be allowed to (a token scoped to quotes alone is not).
    const writeInvoices = access.write("invoices");
    const { registry } = platformOf(c);
    if (!isAllowed(principalOf(c), writeInvoices, registry)) {
      const { message, details } = denial(principalOf(c), writeInvoices, registry);
      throw new ApiError("forbidden", message, details ? { details: [{ path: "", message, ...details }] } : {});
    }
    // The quote's own row, accepted and never invoiced: every statement below applies only while it is.
    const accepted = tenant.scope(quotes, eq(quotes.id, id), eq(quotes.status, "accepted"), isNull(quotes.invoiceId));
    const now = Date.now();
    const [, inserted, marked, , [row]] = await tenant.batch([
      // The invoice number is bumped only when the invoice will be written: no gaps in the sequence.
      tenant
        .insertSelect(invoiceCounters, sql`SELECT ${tenant.workspaceId}, 1 WHERE EXISTS (SELECT 1 FROM ${quotes} WHERE ${accepted})`)
        .onConflictDoUpdate({ target: invoiceCounters.workspaceId, set: { last: sql`${invoiceCounters.last} + 1` } }),
      tenant.insertSelect(invoices, sql`SELECT ${invoiceFromQuote(tenant, now)} FROM ${quotes} WHERE ${accepted}`).returning({ id: invoices.id }),
      tenant
        .update(
          quotes,
          { status: "invoiced", invoiceId: sql`last_insert_rowid()`, updatedAt: now },
          eq(quotes.id, id),
          eq(quotes.status, "accepted"),
          isNull(quotes.invoiceId),
          sql`changes() > 0`,
        )
        .returning({ id: quotes.id }),
      recordEvent(
        tenant,
        {
          type: "invoice.created",
          dataSql: sql`(SELECT ${rowJson(invoiceResource)} FROM ${invoices} WHERE ${tenant.scope(invoices, sql`${invoices.id} = (SELECT ${quotes.invoiceId} FROM ${quotes} WHERE ${tenant.scope(quotes, eq(quotes.id, id))})`)})`,
          onlyIfChanged: true,
        },
        now,
      ),
      readBack(quoteResource, tenant, id),
    ]);
    if (!row) throw ApiError.notFound("quote");
    if (inserted.length === 0 || marked.length === 0) throw quoteTransitionError((row as QuoteRow).status, "invoice", ["accepted"]);
    return c.json({ success: true as const, data: toQuote(row as QuoteRow) }, 201);
  })
  .openapi(pdf, async (c) => {
    const { id } = c.req.valid("param");
    const found = await loadQuote(tenantOf(c), id);
    if (!found) throw ApiError.notFound("quote");
    const view = quoteView(found.quote, found.customer, principalOf(c).workspace.name);
    return pdfResponse(await documentPdf(view), view.number, "private, no-cache");
  });
