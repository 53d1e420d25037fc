import { eq, isNull, sql } from "drizzle-orm";
import { type Context, Hono } from "hono";
import { isbot } from "isbot";
import { type AppEnv, eventsRecordedFor } from "../../platform/context";
import { newNonce } from "../../platform/docs";
import { recordEvent } from "../../platform/events";
import { currencyFormatter } from "../../platform/format";
import { logError } from "../../platform/log";
import { findPublicLink, type PublicLink } from "../../platform/public-links";
import { rowJson } from "../../platform/resource/row-json";
import { platformOf } from "../../platform/services";
import { invoicePdf } from "./invoice-pdf";
import { pdfResponse } from "./invoice-sending";
import { type InvoiceView, invoiceReads, invoiceView } from "./invoice-view";
import { invoiceResource } from "./invoices";
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

/** Stripe's pages (and, in tests, the stand-in's) are where Pay may send the browser. */
function checkoutOrigins(c: Context<AppEnv>): string {
  const origins = ["https://checkout.stripe.com"];
  if (c.env.STRIPE_API_BASE) origins.push(new URL(c.env.STRIPE_API_BASE).origin);
  return origins.join(" ");
}

function headers(c: Context<AppEnv>, nonce: string): Record<string, string> {
  return {
    "Content-Security-Policy": `default-src 'none'; style-src 'nonce-${nonce}'; img-src 'self' data:; form-action 'self' ${checkoutOrigins(c)}; frame-ancestors 'none'; base-uri 'none'`,
    "X-Robots-Tag": "noindex, nofollow",
    // The token is in the URL: never hand it to another site (Stripe's page included) in a Referer.
    "Referrer-Policy": "no-referrer",
    "X-Content-Type-Options": "nosniff",
    "Cache-Control": "no-store",
  };
}

const STYLE = `
*{box-sizing:border-box}body{margin:0;background:#f4f5f7;color:#1a1f26;font:16px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,Helvetica,Arial,sans-serif}
main{max-width:760px;margin:0 auto;padding:24px 16px 48px}.card{background:#fff;border-radius:10px;box-shadow:0 1px 3px rgba(0,0,0,.08);padding:24px}
header{display:flex;flex-wrap:wrap;justify-content:space-between;gap:8px 24px;align-items:baseline}h1{font-size:1.1rem;margin:0;color:#4a525c;font-weight:600}
h2{font-size:1.6rem;margin:.25rem 0 0}.due{font-size:2.2rem;font-weight:700;margin:16px 0 0}.muted{color:#5b6470}.badge{display:inline-block;border-radius:999px;padding:2px 10px;font-size:.85rem;font-weight:600;background:#e8eefc;color:#1d3f9a}
.badge.paid{background:#e3f5e9;color:#17603a}.badge.void,.badge.overdue{background:#fdecea;color:#9b1c1c}.notice{border-radius:8px;padding:12px 16px;margin:0 0 16px;background:#e3f5e9;color:#17603a}.notice.void{background:#fdecea;color:#9b1c1c}
.actions{display:flex;flex-wrap:wrap;gap:12px;margin:20px 0 8px}.button{display:inline-block;border:0;border-radius:6px;padding:10px 18px;font:inherit;font-weight:600;text-decoration:none;cursor:pointer;background:#eef0f3;color:#1a1f26}
.button.primary{background:#1d4ed8;color:#fff}.button:focus-visible{outline:3px solid #93b4f5;outline-offset:2px}
.parties{display:grid;grid-template-columns:1fr 1fr;gap:16px;margin:24px 0}.parties p{margin:0}dl{margin:0;display:grid;grid-template-columns:auto auto;gap:2px 16px;justify-content:end}dt{color:#5b6470}dd{margin:0;text-align:right}
.scroll{overflow-x:auto}table{width:100%;border-collapse:collapse;margin:8px 0}th,td{padding:8px 6px;border-bottom:1px solid #e3e6ea;text-align:right;vertical-align:top}th:first-child,td:first-child{text-align:left}th{font-size:.85rem;color:#5b6470;font-weight:600}
.due .when{font-size:1rem;font-weight:400}caption{text-align:left}.totals{margin-top:12px}.totals dd,.totals dt{padding:2px 0}.totals .strong{font-weight:700;color:#1a1f26}.notes{white-space:pre-wrap;margin-top:24px}
@media (max-width:560px){.parties{grid-template-columns:1fr}dl{justify-content:start}dd{text-align:left}.wide{display:none}.due{font-size:1.8rem}}
`;

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
        <div class="scroll">
          <table>
            <caption class="muted">Lines</caption>
            <thead>
              <tr>
                <th scope="col">Description</th>
                <th scope="col">Qty</th>
                <th scope="col" class="wide">
                  Unit price
                </th>
                <th scope="col" class="wide">
                  Tax
                </th>
                <th scope="col">Amount</th>
              </tr>
            </thead>
            <tbody>
              {view.items.map((item) => (
                <tr>
                  <td>{item.description}</td>
                  <td>{item.quantity}</td>
                  <td class="wide">{money(item.unit_amount)}</td>
                  <td class="wide">{item.tax_rate}%</td>
                  <td>{money(item.amount)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
        <dl class="totals">
          <dt>Subtotal</dt>
          <dd>{money(view.subtotal)}</dd>
          <dt>Tax</dt>
          <dd>{money(view.taxTotal)}</dd>
          <dt class="strong">Total</dt>
          <dd class="strong">{money(view.total)}</dd>
          <dt>Paid</dt>
          <dd>{money(view.amountPaid)}</dd>
          <dt class="strong">Balance due</dt>
          <dd class="strong">{money(view.amountDue)}</dd>
        </dl>
        {view.notes ? <p class="notes">{view.notes}</p> : null}
      </div>
    </main>
  );
}

async function page(c: Context<AppEnv>, title: string, body: unknown, status: 200 | 404 | 502 = 200) {
  const nonce = newNonce();
  const html = (
    <html lang="en">
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="robots" content="noindex, nofollow" />
        <title>{title}</title>
        <link rel="icon" href="data:," />
        <style nonce={nonce} dangerouslySetInnerHTML={{ __html: STYLE }} />
      </head>
      <body>{body}</body>
    </html>
  );
  return c.html(`<!doctype html>${await html}`, status, headers(c, nonce));
}

const notFound = (c: Context<AppEnv>) =>
  page(
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
  return page(
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
  const origin = c.req.header("origin");
  if (origin && origin !== new URL(c.req.url).origin) return notFound(c);
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
    return page(
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
