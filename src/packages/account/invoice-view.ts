import { eq, type SQL, sql } from "drizzle-orm";
import { words } from "../../platform/format";
import type { Row } from "../../platform/resource/definition";
import type { Tenant } from "../../platform/tenancy";
import { today } from "../../platform/time";
import { customers, invoices, type StoredLine } from "./schema";

/** An invoice as its customer sees it (the public page, the PDF, the e-mail): numbers exactly as the API's. */
export type InvoiceView = {
  id: number;
  number: string;
  status: Row<typeof invoices>["status"];
  /** "Paid", "Void", "Overdue since 2026-11-01", "Due 2026-12-01"… */
  statusLabel: string;
  overdue: boolean;
  currency: string;
  issueDate: string;
  dueDate: string | null;
  items: StoredLine[];
  notes: string | null;
  subtotal: number;
  taxTotal: number;
  total: number;
  amountPaid: number;
  amountDue: number;
  workspaceName: string;
  customerName: string;
  /** The customer's billing name and address, one line each. */
  billTo: string[];
  publicUrl: string | null;
  publicToken: string | null;
  viewedAt: number | null;
};

type InvoiceRow = Row<typeof invoices>;
type CustomerRow = Row<typeof customers>;

function statusLabel(invoice: InvoiceRow, overdue: boolean): string {
  if (invoice.status === "paid") return "Paid";
  if (invoice.status === "void") return "Void";
  if (overdue) return `Overdue since ${invoice.dueDate}`;
  if (invoice.dueDate) return `Due ${invoice.dueDate}`;
  return words(invoice.status).replace(/^./, (first) => first.toUpperCase());
}

/** A customer's billing name and address, one line each (empty without a customer). */
export function billToOf(customer: CustomerRow | undefined): string[] {
  if (!customer) return [];
  return [
    customer.billingName ?? customer.name,
    customer.billingAddressLine1,
    customer.billingAddressLine2,
    [customer.billingPostalCode, customer.billingCity, customer.billingState].filter(Boolean).join(" "),
    customer.billingCountry,
    customer.taxId ? `Tax ID ${customer.taxId}` : null,
  ].filter((line): line is string => Boolean(line));
}

export function invoiceView(invoice: InvoiceRow, customer: CustomerRow | undefined, workspaceName: string, now = Date.now()): InvoiceView {
  const open = invoice.status === "sent" || invoice.status === "partially_paid";
  const overdue = open && invoice.dueDate !== null && invoice.dueDate < today(now);
  const address = billToOf(customer);
  return {
    id: invoice.id,
    number: invoice.number,
    status: invoice.status,
    statusLabel: statusLabel(invoice, overdue),
    overdue,
    currency: invoice.currency,
    issueDate: invoice.issueDate,
    dueDate: invoice.dueDate,
    items: invoice.items,
    notes: invoice.notes,
    subtotal: invoice.subtotal,
    taxTotal: invoice.taxTotal,
    total: invoice.total,
    amountPaid: invoice.amountPaid,
    amountDue: invoice.total - invoice.amountPaid,
    workspaceName,
    customerName: customer?.name ?? "",
    billTo: address,
    publicUrl: invoice.publicUrl,
    publicToken: invoice.publicToken,
    viewedAt: invoice.viewedAt,
  };
}

/** The statements that read an invoice (matching `conditions`) and its customer, for one batch. */
export function invoiceReads(tenant: Tenant, ...conditions: SQL[]) {
  return [
    tenant.select(invoices, ...conditions),
    tenant.select(customers, sql`${customers.id} = (SELECT ${invoices.customerId} FROM ${invoices} WHERE ${tenant.scope(invoices, ...conditions)})`),
  ] as const;
}

/** The invoice and its customer in one round trip, or null when the workspace has no such invoice. */
export async function loadInvoice(tenant: Tenant, id: number): Promise<{ invoice: InvoiceRow; customer: CustomerRow | undefined } | null> {
  const [found, customer] = await tenant.batch(invoiceReads(tenant, eq(invoices.id, id)));
  return found[0] ? { invoice: found[0], customer: customer[0] } : null;
}
