import { eq, isNull } from "drizzle-orm";
import { type Context, Hono } from "hono";
import { isbot } from "isbot";
import { type AppEnv, eventsRecordedFor } from "../../platform/context";
import { formatCurrency } from "../../platform/format";
import { findPublicLink, type PublicLink } from "../../platform/public-links";
import { platformOf } from "../../platform/services";
import { documentPdf } from "../account/document-pdf";
import { pdfResponse } from "../account/invoice-sending";
import { DocumentLines, fromOwnPage, publicPage } from "../account/public-page";
import { decisionStatements } from "./quote-actions";
import { type QuoteView, quoteReads, quoteView } from "./quote-view";
import { quotes } from "./schema";

/**
 * The customer's side of a quote, at the site root and without a login, as an invoice's: its page
 * (/q/{token}) with Accept and Decline, and its PDF (/q/{token}.pdf). The token is the only credential;
 * a draft, a wrong token or another kind of link is 404, and nothing says which.
 */
export const quotePublicPages = new Hono<AppEnv>();

const TOKEN = "[0-9A-Za-z]{43}";

type Loaded = { link: PublicLink; view: QuoteView };

async function load(c: Context<AppEnv>, token: string, options: { view: boolean }): Promise<Loaded | null> {
  const link = await findPublicLink(c.env, platformOf(c), token, "quote");
  if (!link) return null;
  const { tenant } = link;
  const [found, customer] = await tenant.batch(quoteReads(tenant, eq(quotes.id, link.subjectId), eq(quotes.publicToken, token)));
  const quote = found[0];
  if (!quote || quote.status === "draft") return null;
  const now = Date.now();
  // A person's first look (not a link scanner's, not while the workspace is being moved) is noted.
  if (options.view && quote.viewedAt === null && !link.moving && !isbot(c.req.header("user-agent") ?? "")) {
    await tenant.update(quotes, { viewedAt: now }, eq(quotes.id, quote.id), isNull(quotes.viewedAt)).run();
    quote.viewedAt = now;
  }
  return { link, view: quoteView(quote, customer[0], link.workspace.name, now) };
}

const NOTICES: Partial<Record<QuoteView["status"], { text: string; tone: "" | "void" }>> = {
  accepted: { text: "You accepted this quote. Thank you!", tone: "" },
  invoiced: { text: "You accepted this quote. Thank you!", tone: "" },
  declined: { text: "You declined this quote.", tone: "void" },
  expired: { text: "This quote has expired. Ask for a new one if you are still interested.", tone: "void" },
};

function PublicQuote(props: { view: QuoteView; token: string }) {
  const { view, token } = props;
  const notice = NOTICES[view.status];
  const badge = view.status === "accepted" || view.status === "invoiced" ? "paid" : view.status === "declined" || view.status === "expired" ? "void" : "";
  return (
    <main>
      {notice ? <p class={`notice ${notice.tone}`}>{notice.text}</p> : null}
      <div class="card">
        <header>
          <div>
            <h1>{view.workspaceName}</h1>
            <h2>Quote {view.number}</h2>
          </div>
          <span class={`badge ${badge}`}>{view.statusLabel}</span>
        </header>
        <p class="due">
          {formatCurrency(view.totals.find(([label]) => label === "Total")?.[1] ?? 0, view.currency)}
          <span class="muted when">{view.validUntil ? ` valid until ${view.validUntil}` : ""}</span>
        </p>
        <div class="actions">
          {view.open ? (
            <>
              <form method="post" action={`/q/${token}/accept`}>
                <button class="button primary" type="submit">
                  Accept quote
                </button>
              </form>
              <form method="post" action={`/q/${token}/decline`}>
                <button class="button" type="submit">
                  Decline
                </button>
              </form>
            </>
          ) : null}
          <a class="button" href={`/q/${token}.pdf`} download={`${view.number}.pdf`}>
            Download PDF
          </a>
        </div>
        <div class="parties">
          <div>
            <p class="muted">For</p>
            {view.billTo.map((line) => (
              <p>{line}</p>
            ))}
          </div>
          <dl>
            {view.dates.map(([label, value]) => (
              <>
                <dt>{label}</dt>
                <dd>{value}</dd>
              </>
            ))}
          </dl>
        </div>
        <DocumentLines view={view} />
        {view.notes ? <p class="notes">{view.notes}</p> : null}
      </div>
    </main>
  );
}

const notFound = (c: Context<AppEnv>) =>
  publicPage(
    c,
    "Quote not found",
    <main>
      <div class="card">
        <h2>Quote not found</h2>
        <p class="muted">This link is not valid. Ask the business that sent it for a new one.</p>
      </div>
    </main>,
    404,
  );

quotePublicPages.get(`/q/:token{${TOKEN}}`, async (c) => {
  const token = c.req.param("token");
  const loaded = await load(c, token, { view: true });
  if (!loaded) return notFound(c);
  return publicPage(c, `Quote ${loaded.view.number} from ${loaded.view.workspaceName}`, <PublicQuote view={loaded.view} token={token} />);
});

quotePublicPages.get(`/q/:file{${TOKEN}\\.pdf}`, async (c) => {
  const token = c.req.param("file").slice(0, -4);
  const loaded = await load(c, token, { view: false });
  if (!loaded) return notFound(c);
  const response = pdfResponse(await documentPdf(loaded.view), loaded.view.number, "private, no-store");
  response.headers.set("X-Robots-Tag", "noindex, nofollow");
  response.headers.set("Referrer-Policy", "no-referrer");
  return response;
});

for (const action of ["accept", "decline"] as const) {
  quotePublicPages.post(`/q/:token{${TOKEN}}/${action}`, async (c) => {
    const token = c.req.param("token");
    // Only the quote's own page answers for the customer (a form on another site cannot).
    if (!fromOwnPage(c)) return notFound(c);
    const loaded = await load(c, token, { view: false });
    if (!loaded) return notFound(c);
    // Past its last day, or already answered: nothing changes, the page says where it stands.
    if (loaded.view.open && !loaded.link.moving) {
      const { tenant } = loaded.link;
      const [changed] = await tenant.batch(decisionStatements(tenant, loaded.view.id, action, Date.now(), [eq(quotes.publicToken, token)]));
      if (changed.length > 0) eventsRecordedFor(c, loaded.link.workspace);
    }
    return c.redirect(`/q/${token}`, 303);
  });
}
