import { formatCurrency } from "../../platform/format";
import type { Mailer } from "../../platform/mail/types";
import { documentPdf } from "../account/document-pdf";
import { mailBodies } from "../account/invoice-mail";
import { loadQuote, quoteView } from "./quote-view";

/** The quote itself, rendered when the message is sent: it shows the quote as it is then. */
const quoteMail: Mailer = async ({ tenant, subjectId, fromName }) => {
  const found = await loadQuote(tenant, subjectId);
  if (!found) return { skip: "the quote no longer exists" };
  if (found.quote.status !== "sent") return { skip: `the quote is ${found.quote.status} now` };
  const view = quoteView(found.quote, found.customer, fromName);
  return {
    subject: `Quote ${view.number} from ${view.workspaceName}`,
    ...mailBodies({
      workspaceName: view.workspaceName,
      lead: `${view.workspaceName} sent you quote ${view.number}.`,
      headline: `Total: ${formatCurrency(found.quote.total, view.currency)}`,
      detail: `Quote ${view.number} · ${view.validUntil ? `valid until ${view.validUntil}` : "valid until withdrawn"}`,
      link: view.publicUrl,
      linkLabel: "View and accept",
      linkSentence: "View it, then accept or decline it online",
      attached: "The quote is attached as a PDF.",
    }),
    attachments: [{ filename: `${view.number}.pdf`, contentType: "application/pdf", data: await documentPdf(view) }],
  };
};

export const quoteMailers = { quote: quoteMail } satisfies Record<string, Mailer>;
