import { formatCurrency } from "../../platform/format";
import type { MailContent, Mailer } from "../../platform/mail/types";
import { invoicePdf } from "./document-pdf";
import { type InvoiceView, invoiceView, loadInvoice } from "./invoice-view";

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);

/** What a customer's e-mail says about a document: the headline amount, a line of detail and its page. */
export type MailCard = {
  workspaceName: string;
  lead: string;
  headline: string;
  detail: string;
  link: string | null;
  /** The button ("View invoice") and the plain-text twin's sentence before the link. */
  linkLabel: string;
  linkSentence: string;
  attached: string;
};

/** A short, inline-styled HTML body (mail clients ignore style sheets) and its plain-text twin. */
export function mailBodies(card: MailCard): { html: string; text: string } {
  const { link } = card;
  const html = `<!doctype html><html><body style="margin:0;padding:24px;background:#f4f5f7;font-family:-apple-system,Segoe UI,Roboto,Helvetica,Arial,sans-serif;color:#1a1f26">
<table role="presentation" width="100%" style="max-width:560px;margin:0 auto;background:#ffffff;border-radius:8px;padding:24px">
<tr><td style="font-size:14px;color:#5b6470">${escapeHtml(card.workspaceName)}</td></tr>
<tr><td style="padding:8px 0 0;font-size:15px">${escapeHtml(card.lead)}</td></tr>
<tr><td style="padding:16px 0 4px;font-size:28px;font-weight:700">${escapeHtml(card.headline)}</td></tr>
<tr><td style="font-size:14px;color:#5b6470">${escapeHtml(card.detail)}</td></tr>
${link ? `<tr><td style="padding:20px 0"><a href="${escapeHtml(link)}" style="display:inline-block;background:#1d4ed8;color:#ffffff;text-decoration:none;padding:10px 18px;border-radius:6px;font-weight:600">${escapeHtml(card.linkLabel)}</a></td></tr>` : ""}
<tr><td style="font-size:13px;color:#5b6470">${escapeHtml(card.attached)}</td></tr>
</table></body></html>`;
  const text = [
    card.workspaceName,
    "",
    card.lead,
    "",
    card.headline,
    card.detail,
    ...(link ? ["", `${card.linkSentence}: ${link}`] : []),
    "",
    card.attached,
  ].join("\n");
  return { html, text };
}

function bodies(view: InvoiceView, lead: string): { html: string; text: string } {
  const due = view.dueDate ? `Due ${view.dueDate}` : "Due on receipt";
  return mailBodies({
    workspaceName: view.workspaceName,
    lead,
    headline: `Amount due: ${formatCurrency(view.amountDue, view.currency)}`,
    detail: `Invoice ${view.number} · ${due}`,
    link: view.publicUrl,
    linkLabel: "View invoice",
    linkSentence: "View and pay it online",
    attached: "The invoice is attached as a PDF.",
  });
}

async function withPdf(view: InvoiceView, subject: string, lead: string): Promise<MailContent> {
  return {
    subject,
    ...bodies(view, lead),
    attachments: [{ filename: `${view.number}.pdf`, contentType: "application/pdf", data: await invoicePdf(view) }],
  };
}

/** The invoice itself: rendered when the message is sent, so it shows the invoice as it is then. */
const invoiceMail: Mailer = async ({ tenant, subjectId, fromName }) => {
  const found = await loadInvoice(tenant, subjectId);
  if (!found) return { skip: "the invoice no longer exists" };
  if (found.invoice.status === "void") return { skip: "the invoice was voided before it could be sent" };
  const view = invoiceView(found.invoice, found.customer, fromName);
  return withPdf(view, `Invoice ${view.number} from ${view.workspaceName}`, `${view.workspaceName} sent you invoice ${view.number}.`);
};

/** A reminder for an overdue invoice, unless it was paid or voided since the reminder was queued. */
const reminderMail: Mailer = async ({ tenant, subjectId, fromName }) => {
  const found = await loadInvoice(tenant, subjectId);
  if (!found) return { skip: "the invoice no longer exists" };
  if (found.invoice.status !== "sent" && found.invoice.status !== "partially_paid") return { skip: `the invoice is ${found.invoice.status} now` };
  const view = invoiceView(found.invoice, found.customer, fromName);
  return withPdf(
    view,
    `Reminder: invoice ${view.number} from ${view.workspaceName} is overdue`,
    `A friendly reminder: invoice ${view.number} was due on ${view.dueDate} and ${formatCurrency(view.amountDue, view.currency)} is still open.`,
  );
};

export const invoiceMailers = { invoice: invoiceMail, invoice_reminder: reminderMail } satisfies Record<string, Mailer>;
