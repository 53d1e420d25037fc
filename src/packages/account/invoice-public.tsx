import { eq, isNull, sql } from "drizzle-orm";
import { type Context, Hono } from "hono";
import { isbot } from "isbot";
import { type AppEnv, eventsRecordedFor } from "../../platform/context";
import { recordEvent } from "../../platform/events";
import { currencyFormatter } from "../../platform/format";
import { logError } from "../../platform/log";
import { findPublicLink, type PublicLink } from "../../platform/public-links";
import { rowJson } from "../../platform/resource/row-json";
import { platformOf } from "../../platform/services";
import { invoiceDocument, invoicePdf } from "./document-pdf";
import { pdfResponse } from "./invoice-sending";
import { type InvoiceView, invoiceReads, invoiceView } from "./invoice-view";
import { invoiceResource } from "./invoices";
import { DocumentLines, fromOwnPage, publicPage } from "./public-page";
import { invoices, paymentProcessors } from "./schema";
import { createCheckout, processorKeys } from "./stripe";

/**
 * The customer's side of an invoice, at the site root and without a login: its page (/i/{token}), its PDF
 * (/i/{token}.pdf) and Pay (a Stripe Checkout Session). The token is the only credential: 32 random bytes,
 * looked up by hash; a draft, a wrong token or another kind of link is 404, and nothing says which.
 */
export const invoicePublicPages = new Hono<AppEnv>();

const TOKEN = "[0-9A-Za-z]{43}";

type Loaded = { link: PublicLink; view: InvoiceView; payable: boolean; firstView: boolean; sentTo: string | null };

/**
 * The invoice behind a token: one directory read (usually cached in the isolate), then one shard batch of
 * reads. Only the first view by a person writes: viewed_at and invoice.viewed, in a second batch.
 */
async function load(c: Context<AppEnv>, token: string, options: { view: boolean }): Promise<Loaded | null> {
  const link = await findPublicLink(c.env, platformOf(c), token, "invoice");
  if (!link) return null;
  const { tenant } = link;
  const id = link.subjectId;
  const mine = tenant.scope(invoices, eq(invoices.id, id), eq(invoices.publicToken, token));
  const [found, customer, processor] = await tenant.batch([
    ...invoiceReads(tenant, eq(invoices.id, id), eq(invoices.publicToken, token)),
    tenant.selectFrom({ provider: paymentProcessors.provider }, paymentProcessors),
  ]);
  const invoice = found[0];
  if (!invoice || invoice.status === "draft") return null;
  const now = Date.now();
  // A person's first look (not a link scanner's, not while the workspace is being moved).
  const firstView = options.view && invoice.viewedAt === null && !link.moving && !isbot(c.req.header("user-agent") ?? "");
  if (firstView) {
    const [marked] = await tenant.batch([
      tenant
        .update(invoices, { viewedAt: now }, eq(invoices.id, id), eq(invoices.publicToken, token), isNull(invoices.viewedAt))
        .returning({ id: invoices.id }),
      recordEvent(
        tenant,
        { type: "invoice.viewed", dataSql: sql`(SELECT ${rowJson(invoiceResource)} FROM ${invoices} WHERE ${mine})`, onlyIfChanged: true },
        now,
      ),
    ]);
    if (marked.length > 0) {
      invoice.viewedAt = now;
      eventsRecordedFor(c, link.workspace);
    }
  }
  const payable = processor.length > 0 && (invoice.status === "sent" || invoice.status === "partially_paid") && invoice.total > invoice.amountPaid;
  return { link, view: invoiceView(invoice, customer[0], link.workspace.name, now), payable, firstView, sentTo: invoice.sentTo };
}

function PublicInvoice(props: { view: InvoiceView; token: string; payable: boolean; paidNotice: boolean }) {
  const { view, token } = props;
  const money = currencyFormatter(view.currency);
  const badge = view.status === "paid" ? "paid" : view.status === "void" ? "void" : view.overdue ? "overdue" : "";
  return (
    <main>
      {view.status === "void" ? <p class="notice void">This invoice is void: it was cancelled and nothing is owed on it.</p> : null}
      {props.paidNotice && view.status !== "paid" ? <p class="notice">Thank you: your payment is being confirmed.</p> : null}
      {view.status === "paid" ? <p class="notice">Paid in full. Thank you!</p> : null}
      <div class="card">
        <header>
          <div>
            <h1>{view.workspaceName}</h1>
            <h2>Invoice {view.number}</h2>
          </div>
          <span class={`badge ${badge}`}>{view.statusLabel}</span>
        </header>
        {view.status !== "void" ? (
          <p class="due">
            {money(view.amountDue)}
            <span class="muted when"> due{view.dueDate ? ` ${view.dueDate}` : " on receipt"}</span>
          </p>
        ) : null}
        <div class="actions">
          {props.payable ? (
            <form method="post" action={`/i/${token}/checkout`}>
              <button class="button primary" type="submit">
                Pay {money(view.amountDue)}
              </button>
            </form>
          ) : null}
          <a class="button" href={`/i/${token}.pdf`} download={`${view.number}.pdf`}>
            Download PDF
          </a>
        </div>
        <div class="parties">
          <div>
            <p class="muted">Bill to</p>
            {view.billTo.map((line) => (
              <p>{line}</p>
            ))}
          </div>
          <dl>
            <dt>Issued</dt>
            <dd>{view.issueDate}</dd>
            <dt>Due</dt>
            <dd>{view.dueDate ?? "On receipt"}</dd>
          </dl>
        </div>
        <DocumentLines view={invoiceDocument(view)} />
        {view.notes ? <p class="notes">{view.notes}</p> : null}
      </div>
    </main>
  );
}

const notFound = (c: Context<AppEnv>) =>
  publicPage(
    c,
    "Invoice not found",
    <main>
      <div class="card">
        <h2>Invoice not found</h2>
        <p class="muted">This link is not valid. Ask the business that sent it for a new one.</p>
      </div>
    </main>,
    404,
  );

invoicePublicPages.get(`/i/:token{${TOKEN}}`, async (c) => {
  const token = c.req.param("token");
  const loaded = await load(c, token, { view: true });
  if (!loaded) return notFound(c);
  const { view } = loaded;
  return publicPage(
    c,
    `Invoice ${view.number} from ${view.workspaceName}`,
    <PublicInvoice view={view} token={token} payable={loaded.payable} paidNotice={c.req.query("paid") === "1"} />,
  );
});

invoicePublicPages.get(`/i/:file{${TOKEN}\\.pdf}`, async (c) => {
  const token = c.req.param("file").slice(0, -4);
  const loaded = await load(c, token, { view: false });
  if (!loaded) return notFound(c);
  const response = pdfResponse(await invoicePdf(loaded.view), loaded.view.number, "private, no-store");
  response.headers.set("X-Robots-Tag", "noindex, nofollow");
  response.headers.set("Referrer-Policy", "no-referrer");
  return response;
});

invoicePublicPages.post(`/i/:token{${TOKEN}}/checkout`, async (c) => {
  const token = c.req.param("token");
  // Only the invoice's own page starts a payment (a form elsewhere cannot).
  if (!fromOwnPage(c)) return notFound(c);
  const loaded = await load(c, token, { view: false });
  if (!loaded) return notFound(c);
  const back = `/i/${token}`;
  if (!loaded.payable || !loaded.view.publicUrl) return c.redirect(back, 303);
  const keys = await processorKeys(c.env, loaded.link.tenant);
  if (!keys) return c.redirect(back, 303);
  try {
    const url = await createCheckout(c.env, keys.secretKey, loaded.link.workspace.id, {
      id: loaded.view.id,
      number: loaded.view.number,
      currency: loaded.view.currency,
      amountDue: loaded.view.amountDue,
      sentTo: loaded.sentTo,
      publicUrl: loaded.view.publicUrl,
    });
    return c.redirect(url, 303);
  } catch (error) {
    logError("stripe: checkout session failed", error, { workspace_id: loaded.link.workspace.id, invoice_id: loaded.view.id });
    return publicPage(
      c,
      "Payment unavailable",
      <main>
        <div class="card">
          <h2>The payment page could not be opened</h2>
          <p class="muted">Nothing was charged. Please try again in a few minutes.</p>
          <p>
            <a class="button" href={back}>
              Back to the invoice
            </a>
          </p>
        </div>
      </main>,
      502,
    );
  }
});
