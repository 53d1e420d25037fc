import { z } from "@hono/zod-openapi";
import { eq, sql } from "drizzle-orm";
import { fields } from "../../platform/fields";
import type { EventDeclaration } from "../../platform/packages";
import type { ResourceDefinition, Row } from "../../platform/resource/definition";
import { anyOf, dateBound, integerValue } from "../../platform/resource/filters";
import { isoTimestamp, today } from "../../platform/time";
import { LineItems, totalsOf } from "../account/lines";
import { customers, invoicingSettings } from "../account/schema";
import { QuotePanel } from "./quote-panel";
import { QUOTE_STATUSES, type QuoteStatus, quoteCounters, quotes } from "./schema";

const QuoteLine = z
  .object({
    product_id: z.number().int().optional().openapi({ description: "The catalogue product the line was made from, when it named one" }),
    description: z.string(),
    quantity: z.number(),
    unit_amount: z.number().int(),
    tax_rate: z.number(),
    amount: z.number().int().openapi({ description: "round(quantity × unit_amount), half away from zero" }),
    tax_amount: z.number().int().openapi({ description: "round(amount × tax_rate / 100), half away from zero" }),
  })
  .openapi("QuoteLine");

export const Quote = z
  .object({
    id: z.number().int(),
    number: z.string().openapi({ example: "QUO-000001" }),
    customer_id: z.number().int(),
    status: z.enum(QUOTE_STATUSES),
    currency: z.string(),
    issue_date: z.string(),
    valid_until: z.string().nullable().openapi({ description: "The last day it can be accepted; the cron expires a sent quote after it" }),
    items: z.array(QuoteLine),
    notes: z.string().nullable(),
    subtotal: z.number().int(),
    tax_total: z.number().int(),
    total: z.number().int(),
    sent_at: fields.timestamp().nullable(),
    sent_to: z.string().nullable(),
    public_url: z.string().nullable().openapi({ description: "The customer's page (Accept / Decline, its PDF at the same URL + .pdf); null until first sent" }),
    viewed_at: fields.timestamp().nullable(),
    decided_at: fields.timestamp().nullable().openapi({ description: "When it was accepted or declined" }),
    invoice_id: z.number().int().nullable().openapi({ description: "The draft invoice it became (POST /quotes/{id}/invoice)" }),
    created_at: fields.timestamp(),
    updated_at: fields.timestamp(),
  })
  .openapi("Quote");

export const quoteEvents = {
  "quote.created": { description: "A quote was created (as a draft, with its number)", data: Quote },
  "quote.sent": { description: "A quote was e-mailed to its customer (its e-mail is queued)", data: Quote },
  "quote.accepted": { description: "The customer (on its page) or a user accepted the quote", data: Quote },
  "quote.declined": { description: "The customer (on its page) or a user declined the quote", data: Quote },
} satisfies Record<string, EventDeclaration>;

const writable = {
  customer_id: fields.id(),
  currency: fields.currency(),
  issue_date: fields.date(),
  valid_until: fields.date().nullable(),
  items: LineItems,
  notes: fields.text(2000).nullable(),
};
const CreateQuote = z.strictObject(writable).partial().required({ customer_id: true, items: true }).openapi("CreateQuote");
const UpdateQuote = z.strictObject(writable).partial().openapi("UpdateQuote");
type QuoteRow = Row<typeof quotes>;

export function toQuote(row: QuoteRow): z.infer<typeof Quote> {
  return {
    id: row.id,
    number: row.number,
    customer_id: row.customerId,
    status: row.status,
    currency: row.currency,
    issue_date: row.issueDate,
    valid_until: row.validUntil,
    items: row.items,
    notes: row.notes,
    subtotal: row.subtotal,
    tax_total: row.taxTotal,
    total: row.total,
    sent_at: isoTimestamp(row.sentAt),
    sent_to: row.sentTo,
    public_url: row.publicUrl,
    viewed_at: isoTimestamp(row.viewedAt),
    decided_at: isoTimestamp(row.decidedAt),
    invoice_id: row.invoiceId,
    created_at: isoTimestamp(row.createdAt),
    updated_at: isoTimestamp(row.updatedAt),
  };
}

/** Where each action works from. */
export const SENDABLE: QuoteStatus[] = ["draft", "sent"];
export const DECIDABLE: QuoteStatus[] = ["draft", "sent"];
/** Lines, currency, customer and dates change only before the customer answers. */
export const EDITABLE = ["draft", "sent"] as const;

export const quoteResource: ResourceDefinition<typeof quotes, z.infer<typeof CreateQuote>, z.infer<typeof UpdateQuote>, z.infer<typeof Quote>> = {
  name: "quotes",
  singular: "quote",
  tags: ["Quotes"],
  description:
    "Quotes (proposals) to customers, with lines as invoices': draft → sent → accepted or declined (or expired), and an accepted quote → a draft invoice, once.",
  table: quotes,
  schemas: { output: Quote, create: CreateQuote, update: UpdateQuote },
  ui: {
    title: "number",
    columns: ["number", "customer_id", "status", "issue_date", "valid_until", "total"],
    money: { subtotal: "currency", tax_total: "currency", total: "currency", unit_amount: "currency", amount: "currency", tax_amount: "currency" },
    hiddenInDetail: ["public_url", "viewed_at"],
    replaces: { form: true },
    panel: (quote) => QuotePanel({ record: quote }),
    actions: [
      {
        name: "send",
        label: "Send",
        method: "POST",
        path: "send",
        fields: ["to"],
        when: (quote) => SENDABLE.includes(quote.status as QuoteStatus),
        primary: true,
        done: "The quote was sent.",
      },
      {
        name: "accept",
        label: "Mark accepted",
        method: "POST",
        path: "accept",
        when: (quote) => DECIDABLE.includes(quote.status as QuoteStatus),
        done: "The quote is accepted.",
      },
      {
        name: "decline",
        label: "Mark declined",
        method: "POST",
        path: "decline",
        when: (quote) => DECIDABLE.includes(quote.status as QuoteStatus),
        confirm: "Mark this quote declined?",
        done: "The quote is declined.",
      },
      {
        name: "invoice",
        label: "Create invoice",
        method: "POST",
        path: "invoice",
        when: (quote) => quote.status === "accepted",
        primary: true,
        done: "A draft invoice was created from the quote.",
      },
    ],
    links: [
      { label: "Open its invoice", href: (quote) => `/app/invoices/${quote.invoice_id}`, when: (quote) => quote.invoice_id !== null, writes: "invoices" },
    ],
  },
  toOutput: toQuote,
  // Numbered from the workspace's own counter, bumped earlier in the same batch (as invoices are).
  beforeCreate: (tenant) => [
    tenant.insert(quoteCounters, { last: 1 }).onConflictDoUpdate({ target: quoteCounters.workspaceId, set: { last: sql`${quoteCounters.last} + 1` } }),
  ],
  toInsert: (input, now, tenant) => ({
    customerId: input.customer_id,
    number: sql`(SELECT 'QUO-' || printf('%06d', ${quoteCounters.last}) FROM ${quoteCounters} WHERE ${tenant.scope(quoteCounters)})`,
    // The customer's currency, then the workspace's, then USD (as an invoice's).
    currency:
      input.currency ??
      sql`coalesce((SELECT ${customers.currency} FROM ${customers} WHERE ${tenant.scope(customers, eq(customers.id, input.customer_id))}), (SELECT ${invoicingSettings.currency} FROM ${invoicingSettings} WHERE ${tenant.scope(invoicingSettings)}), 'USD')`,
    issueDate: input.issue_date ?? today(now),
    validUntil: input.valid_until ?? null,
    notes: input.notes ?? null,
    status: "draft" as const,
    sentAt: null,
    sentTo: null,
    publicToken: null,
    publicUrl: null,
    viewedAt: null,
    decidedAt: null,
    invoiceId: null,
    ...totalsOf(input.items),
  }),
  toUpdate: ({ customer_id, issue_date, valid_until, items, ...rest }) => ({
    ...rest,
    ...(customer_id !== undefined ? { customerId: customer_id } : {}),
    ...(issue_date !== undefined ? { issueDate: issue_date } : {}),
    ...(valid_until !== undefined ? { validUntil: valid_until } : {}),
    ...(items !== undefined ? totalsOf(items) : {}),
  }),
  references: [{ field: "customer_id", table: customers, what: "customer" }],
  locks: [
    {
      fields: ["items", "currency", "customer_id", "valid_until", "issue_date"],
      column: quotes.status,
      onlyWhen: EDITABLE,
      message: (locked, current) => `${locked.join(", ")}: a quote that is ${current} cannot change; only a draft or sent one can`,
      detail: "is locked once the quote is decided",
    },
  ],
  deletable: {
    column: quotes.status,
    onlyWhen: ["draft"],
    message: (current) => `Only draft quotes can be deleted; this one is ${current}.`,
  },
  ordered: [{ first: { field: "issue_date", column: quotes.issueDate }, last: { field: "valid_until", column: quotes.validUntil } }],
  events: [{ type: "quote.created", on: "create" }],
  // Lines and numbering: one at a time, as invoices.
  routes: { batch: false },
  examples: {
    create: {
      customer_id: 1,
      currency: "USD",
      issue_date: "2026-11-23",
      valid_until: "2026-12-23",
      items: [
        { description: "Setup fee", quantity: 3, unit_amount: 50000, tax_rate: 20 },
        { description: "Support (hours)", quantity: 10, unit_amount: 9000 },
      ],
      notes: "Prices valid for 30 days.",
    },
    update: { valid_until: "2027-01-15", notes: "Extended to mid-January." },
  },
  sortable: { id: quotes.id, issue_date: quotes.issueDate, total: quotes.total, created_at: quotes.createdAt },
  filters: {
    status: anyOf(quotes.status, z.enum(QUOTE_STATUSES), "Status (comma list = any of)"),
    customer_id: anyOf(quotes.customerId, integerValue, "Customer id (comma list = any of)"),
    issued_after: dateBound(quotes.issueDate, "after", "Issued on or after this date (YYYY-MM-DD)"),
    issued_before: dateBound(quotes.issueDate, "before", "Issued on or before this date (YYYY-MM-DD)"),
  },
  searchable: [quotes.number, quotes.notes],
  search: { code: 21, label: quotes.number, text: [quotes.notes] },
  uniques: [],
};
