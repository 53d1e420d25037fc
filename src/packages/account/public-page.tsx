import type { Context } from "hono";
import type { AppEnv } from "../../platform/context";
import { newNonce } from "../../platform/docs";
import { currencyFormatter } from "../../platform/format";
import type { DocumentView } from "./document-pdf";

// What the customer's pages share (an invoice's /i/{token}, a quote's /q/{token}): the layout, its style and
// security headers, and the table of lines and totals, so both show the same numbers the same way.

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

/**
 * Whether a form POST came from one of our own pages. The customer's pages send no Referer, so a browser
 * sends `Origin: null` with their forms: Sec-Fetch-Site (sent by every current browser) says same-origin
 * instead. Without it, an Origin, when there is one, must be ours (a client that sends neither is no browser
 * acting for someone on another site).
 */
export function fromOwnPage(c: Context<AppEnv>): boolean {
  const site = c.req.header("sec-fetch-site");
  if (site) return site === "same-origin";
  const origin = c.req.header("origin");
  return !origin || origin === new URL(c.req.url).origin;
}

/** A customer's page: no login, no scripts, its own style by nonce, never indexed, never cached. */
export async function publicPage(c: Context<AppEnv>, title: string, body: unknown, status: 200 | 404 | 502 = 200) {
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

/** The lines and totals of a document, as the PDF draws them. */
export function DocumentLines(props: { view: DocumentView }) {
  const { view } = props;
  const money = currencyFormatter(view.currency);
  return (
    <>
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
        {view.totals.map(([label, amount, strong]) => (
          <>
            <dt class={strong ? "strong" : undefined}>{label}</dt>
            <dd class={strong ? "strong" : undefined}>{money(amount)}</dd>
          </>
        ))}
      </dl>
    </>
  );
}
