// End to end in headless Chromium, as a small business quotes from the web app (the demo workspace):
// sign in → the product catalogue → a new product by its form → a quote with a line by the lines editor → send it
// (the mail queue e-mails it) → the customer opens /q/{token}, downloads the PDF and accepts → the quote's page
// says accepted → "Create invoice" makes the draft invoice with the same lines. Every page visited is checked
// with axe-core (no serious or critical violation) and, at 390 px, never scrolls sideways; no request may leave
// this machine and no script or CSP error may occur. Screenshots go to dist/screenshots/ (APP_SCREENSHOTS).

import { mkdirSync, mkdtempSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { launch, offlinePage, requireChromium } from "./browser.mjs";
import { localSecrets, migrateLocal, startLocalServer } from "./local-server.mjs";
import { DEMO, seedDemo } from "./seed.mjs";

requireChromium("e2e quotes");
const require = createRequire(import.meta.url);
const AXE = readFileSync(require.resolve("axe-core/axe.min.js"), "utf8");
const shots = process.env.APP_SCREENSHOTS ?? "dist/screenshots";
mkdirSync(shots, { recursive: true });
const persistTo = mkdtempSync(join(tmpdir(), "bp-quotes-"));
let server;
let browser;
let failed = false;
const visited = new Set();
const step = (text) => console.log(`  ✓ ${text}`);
const check = (ok, message) => {
  if (!ok) throw new Error(message);
};

async function api(method, path, token, body) {
  const res = await fetch(`${server.url}/api/v1${path}`, {
    method,
    headers: { ...(body ? { "content-type": "application/json" } : {}), ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  return { status: res.status, json: await res.json().catch(() => null) };
}

/** axe-core on the page as it is: serious and critical violations fail the walk. */
async function accessible(page, label) {
  const url = new URL(page.url());
  visited.add(url.pathname + url.search);
  const violations = await page.evaluate(
    `${AXE}; axe.run(document, { resultTypes: ["violations"] }).then((r) => r.violations.filter((v) => v.impact === "serious" || v.impact === "critical").map((v) => v.id + ": " + v.nodes.slice(0, 3).map((n) => n.target.join(" ")).join(", ")))`,
  );
  check(violations.length === 0, `axe on ${label} (${url.pathname}): ${violations.join("; ")}`);
}

try {
  migrateLocal({ persistTo });
  seedDemo({ persistTo });
  // startLocalServer picks a free port and checks that the server answering is its own.
  server = await startLocalServer({ persistTo, quiet: true, vars: { ALLOW_INSECURE_WEBHOOK_URLS: "true", ...localSecrets() } });
  const owner = (await api("POST", "/auth/token", undefined, { email: DEMO.email, password: DEMO.password })).json.token;
  browser = await launch();
  const { page, outside, problems } = await offlinePage(browser, { viewport: { width: 1280, height: 900 } });
  const shot = (name, fullPage = true) => page.screenshot({ path: join(shots, `${name}.png`), fullPage });
  page.on("dialog", (dialog) => dialog.accept());

  await page.goto(`${server.url}/login`);
  await page.fill("#email", DEMO.email);
  await page.fill("#password", DEMO.password);
  await Promise.all([page.waitForURL(`${server.url}/app`), page.click("button[type=submit]")]);

  // The catalogue, and a product by its form.
  await page.click('nav.side a[href="/app/products"]');
  await page.waitForURL(/\/app\/products$/);
  check((await page.textContent("main")).includes("Consulting day"), "the demo catalogue is not listed");
  await accessible(page, "products");
  await shot("products");
  await page.click('a[href="/app/products/new"]');
  await accessible(page, "new product");
  await page.fill("#field-name", "Workshop day");
  await page.fill("#field-sku", "WS-DAY");
  await page.fill("#field-unit_amount", "1450.00");
  await Promise.all([page.waitForURL(/\/app\/products\/\d+\?done=created$/), page.click("main form.record-form button[type=submit]")]);
  const product = (await api("GET", "/products?q=WS-DAY", owner)).json.data[0];
  check(product?.unit_amount === 145000, `the product form wrote ${JSON.stringify(product)}`);
  step(`created product ${product.name} (${product.sku}) at 1,450.00 by its form`);

  // A quote by the lines editor (shared with invoices).
  const customer = (await api("GET", "/customers?limit=1&currency=USD", owner)).json.data[0];
  await page.click('nav.side a[href="/app/quotes"]');
  await page.waitForURL(/\/app\/quotes$/);
  await accessible(page, "quotes");
  await shot("quotes");
  await page.goto(`${server.url}/app/quotes/new`);
  await accessible(page, "quote editor");
  await page.selectOption("#field-customer_id", String(customer.id));
  await page.fill("#field-valid_until", "2099-12-31");
  await page.fill("#items-0-description", "Workshop day");
  await page.fill("#items-0-quantity", "2");
  await page.fill("#items-0-unit_amount", "1450.00");
  await shot("quote-editor", false);
  await Promise.all([page.waitForURL(/\/app\/quotes\/\d+\?done=created$/), page.click("main form.record-form button[type=submit]")]);
  const quoteId = Number(/quotes\/(\d+)/.exec(page.url())[1]);
  let quote = (await api("GET", `/quotes/${quoteId}`, owner)).json.data;
  check(quote.total === 290000 && /^QUO-\d{6}$/.test(quote.number), `the quote is ${quote.number} for ${quote.total}`);
  step(`created quote ${quote.number} (2,900.00) with the lines editor`);

  // Send it: the mail queue e-mails it and it gets its public page.
  await Promise.all([page.waitForURL(/done=send$/), page.click("form[action$='/send'] button")]);
  await page.getByText("The quote was sent.").waitFor();
  await accessible(page, "sent quote");
  const sentAt = Date.now();
  let mailed = false;
  while (!mailed && Date.now() - sentAt < 20_000) {
    const deliveries = (await api("GET", `/quotes/${quoteId}`, owner)).json.data;
    mailed = deliveries.status === "sent" && deliveries.public_url !== null;
    if (!mailed) await new Promise((resolve) => setTimeout(resolve, 250));
  }
  quote = (await api("GET", `/quotes/${quoteId}`, owner)).json.data;
  check((await page.textContent("#public-link")) === quote.public_url, "the quote's page does not show its public link");
  await shot("quote-detail");
  step(`sent it to ${quote.sent_to}; its page shows the public link`);

  // The customer: the page, the PDF, Accept.
  const buyer = await offlinePage(browser, {
    viewport: { width: 1280, height: 900 },
    userAgent: "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/142.0.0.0 Safari/537.36",
  });
  await buyer.page.goto(quote.public_url);
  const text = await buyer.page.textContent("main");
  for (const expected of [quote.number, "$2,900.00", "Workshop day", "Accept quote", "Decline", "Download PDF"])
    check(text.includes(expected), `the quote page lacks ${expected}`);
  await accessible(buyer.page, "the customer's quote page");
  await buyer.page.screenshot({ path: join(shots, "quote-public.png"), fullPage: true });
  const [download] = await Promise.all([buyer.page.waitForEvent("download"), buyer.page.click("text=Download PDF")]);
  check(
    readFileSync(await download.path())
      .subarray(0, 5)
      .toString() === "%PDF-",
    "Download PDF did not give a PDF",
  );
  await buyer.page.setViewportSize({ width: 390, height: 844 });
  await buyer.page.reload();
  const width = await buyer.page.evaluate(() => document.documentElement.scrollWidth);
  check(width <= 390, `the quote page is ${width} px wide at 390 px`);
  await buyer.page.screenshot({ path: join(shots, "phone-quote-public.png"), fullPage: true });
  // The form posts, and the page it redirects to says so (the URL stays the same: wait for the words).
  await buyer.page.click("text=Accept quote");
  await buyer.page.getByText("You accepted this quote").waitFor({ timeout: 10_000 });
  check(!(await buyer.page.isVisible("text=Accept quote")), "Accept is still offered");
  check(buyer.outside.length === 0 && buyer.problems.length === 0, `the customer's page: ${[...buyer.outside, ...buyer.problems].join("; ")}`);
  await buyer.context.close();
  step(`the customer opened ${quote.public_url.replace(/[0-9A-Za-z]{43}$/, "{token}")}, its PDF, and accepted it`);

  // Back in the app: accepted → Create invoice.
  await page.reload();
  check((await page.textContent("dl.facts")).includes("accepted"), "the quote's page does not say accepted");
  await Promise.all([page.waitForURL(/done=invoice$/), page.click("form[action$='/invoice'] button")]);
  quote = (await api("GET", `/quotes/${quoteId}`, owner)).json.data;
  const invoice = (await api("GET", `/invoices/${quote.invoice_id}`, owner)).json.data;
  check(invoice.status === "draft" && invoice.total === 290000 && invoice.items[0].description === "Workshop day", `the invoice is ${JSON.stringify(invoice)}`);
  await page.click("text=Open its invoice");
  await page.waitForURL(new RegExp(`/app/invoices/${invoice.id}$`));
  await accessible(page, "the quote's invoice");
  step(`Create invoice made ${invoice.number} (draft, the same line); the quote links to it`);

  const phone = await offlinePage(browser, { viewport: { width: 390, height: 844 } });
  await phone.page.goto(`${server.url}/login`);
  await phone.page.fill("#email", DEMO.email);
  await phone.page.fill("#password", DEMO.password);
  await Promise.all([phone.page.waitForURL(`${server.url}/app`), phone.page.click("button[type=submit]")]);
  for (const path of visited) {
    if (path.startsWith("/q/")) continue;
    await phone.page.goto(`${server.url}${path}`);
    const scroll = await phone.page.evaluate(() => document.documentElement.scrollWidth);
    check(scroll <= 390, `${path} is ${scroll} px wide at 390 px`);
  }
  await phone.page.goto(`${server.url}/app/quotes/${quoteId}`);
  await phone.page.screenshot({ path: join(shots, "phone-quote-detail.png"), fullPage: true });
  step(`${visited.size} pages at 390 px: none scrolls sideways`);
  for (const [name, seen] of [
    ["owner", { outside, problems }],
    ["phone", phone],
  ]) {
    check(seen.outside.length === 0, `${name}: requests left the machine: ${seen.outside.join(", ")}`);
    const faults = seen.problems.filter((problem) => !/the server responded with a status of 4\d\d/.test(problem));
    check(faults.length === 0, `${name}: script or CSP errors: ${faults.join("; ")}`);
  }
  step(`axe-core: no serious or critical violation on ${visited.size} pages`);
  console.log("e2e quotes: a product, a quote sent, accepted by the customer and invoiced, from the web app");
} catch (error) {
  failed = true;
  console.error(`e2e quotes failed: ${error.stack ?? error}`);
} finally {
  await browser?.close();
  server?.stop();
  console.log(failed ? "0 passed, 1 failed" : "1 passed, 0 failed");
  process.exit(failed ? 1 : 0);
}
