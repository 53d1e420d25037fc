import { eq, type SQL, sql } from "drizzle-orm";
import type { Row } from "../../platform/resource/definition";
import type { Tenant } from "../../platform/tenancy";
import { today } from "../../platform/time";
import type { DocumentView } from "../account/document-pdf";
import { billToOf } from "../account/invoice-view";
import { customers } from "../account/schema";
import { quotes } from "./schema";

type QuoteRow = Row<typeof quotes>;
type CustomerRow = Row<typeof customers>;

/** A quote as its customer sees it (its page, its PDF, its e-mail). */
export type QuoteView = DocumentView & { id: number; status: QuoteRow["status"]; validUntil: string | null; customerName: string; open: boolean };

const LABELS: Record<QuoteRow["status"], string> = {
  draft: "Draft",
  sent: "Awaiting your answer",
  accepted: "Accepted",
  declined: "Declined",
  expired: "Expired",
  invoiced: "Accepted",
};

export function quoteView(quote: QuoteRow, customer: CustomerRow | undefined, workspaceName: string, now = Date.now()): QuoteView {
  // A sent quote past its last day is expired for the customer even before the cron marks it.
  const lapsed = quote.status === "sent" && quote.validUntil !== null && quote.validUntil < today(now);
  return {
    id: quote.id,
    title: "Quote",
    number: quote.number,
    status: lapsed ? "expired" : quote.status,
    statusLabel: lapsed ? LABELS.expired : LABELS[quote.status],
    open: quote.status === "sent" && !lapsed,
    workspaceName,
    customerName: customer?.name ?? "",
    billTo: billToOf(customer),
    dates: [
      ["Issued", quote.issueDate],
      ["Valid until", quote.validUntil ?? "Until withdrawn"],
    ],
    validUntil: quote.validUntil,
    currency: quote.currency,
    items: quote.items,
    totals: [
      ["Subtotal", quote.subtotal, false],
      ["Tax", quote.taxTotal, false],
      ["Total", quote.total, true],
    ],
    notes: quote.notes,
    publicUrl: quote.publicUrl,
  };
}

/** The statements that read a quote (matching `conditions`) and its customer, for one batch. */
export function quoteReads(tenant: Tenant, ...conditions: SQL[]) {
  return [
    tenant.select(quotes, ...conditions),
    tenant.select(customers, sql`${customers.id} = (SELECT ${quotes.customerId} FROM ${quotes} WHERE ${tenant.scope(quotes, ...conditions)})`),
  ] as const;
}

/** The quote and its customer in one round trip, or null when the workspace has no such quote. */
export async function loadQuote(tenant: Tenant, id: number): Promise<{ quote: QuoteRow; customer: CustomerRow | undefined } | null> {
  const [found, customer] = await tenant.batch(quoteReads(tenant, eq(quotes.id, id)));
  return found[0] ? { quote: found[0], customer: customer[0] } : null;
}
