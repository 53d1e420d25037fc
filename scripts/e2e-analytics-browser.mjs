// End to end in headless Chromium: a web page on another origin loads the tracker from the local worker
// (wrangler dev: the real collector, the analytics queue and its consumer, ANALYTICS_DB), calls
// window.bpa before and after the script loads, navigates with pushState and back, then to a new page.
// The pageviews and events arrive through the queue and show in the stats and breakdowns; the page sets
// no cookie and stores nothing.

import { mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { launch, offlinePage, requireChromium } from "./browser.mjs";
import { localSecrets, migrateLocal, startLocalServer } from "./local-server.mjs";

requireChromium("e2e analytics");
const persistTo = mkdtempSync(join(tmpdir(), "bp-analytics-"));
const USER_AGENT = "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36";
let server;
let site;
let browser;
let failed = false;

/** The shop's pages: a product list with a client-side route, and a checkout page. */
function shopPages(apiOrigin, siteKey) {
  const layout = (body) => `<!doctype html><html><head><meta charset="utf-8"><title>Shop</title>
<script>window.bpa = window.bpa || function () { (bpa.q = bpa.q || []).push(arguments) };</script>
<script defer src="${apiOrigin}/api/v1/analytics/script.js" data-site="${siteKey}"></script></head><body>${body}</body></html>`;
  return createServer((req, res) => {
    res.setHeader("content-type", "text/html; charset=utf-8");
    if (req.url.startsWith("/checkout")) return res.end(layout("<h1>Checkout</h1>"));
    res.end(
      layout(`<h1>Products</h1>
<script>bpa("view_item", { props: { sku: "42" } });</script>
<button id="open" onclick="history.pushState({}, '', '/products/42')">Product 42</button>
<button id="cart" onclick="bpa('add_to_cart', { props: { sku: '42' }, revenue: { amount: 4900, currency: 'EUR' } })">Add to cart</button>
<a id="checkout" href="/checkout">Checkout</a>`),
    );
  });
}

async function api(method, path, { token, body } = {}) {
  const res = await fetch(`${server.url}/api/v1${path}`, {
    method,
    headers: { ...(token ? { authorization: `Bearer ${token}` } : {}), ...(body ? { "content-type": "application/json" } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  const json = await res.json();
  if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${JSON.stringify(json)}`);
  return json;
}

try {
  migrateLocal({ persistTo });
  server = await startLocalServer({ persistTo, quiet: true, vars: { ALLOW_INSECURE_WEBHOOK_URLS: "true", ...localSecrets() } });
  const signup = await api("POST", "/auth/signup", {
    body: { workspace_name: "Shop", name: "Owner", email: "owner@shop.example", password: "correct horse battery" },
  });
  const token = signup.data.token;
  const created = (await api("POST", "/analytics/sites", { token, body: { domain: "localhost" } })).data;
  site = shopPages(server.url, created.site_key);
  await new Promise((resolve) => site.listen(0, "127.0.0.1", resolve));
  const siteOrigin = `http://localhost:${site.address().port}`;

  browser = await launch();
  const { page, context, outside, problems } = await offlinePage(browser, { userAgent: USER_AGENT });
  await page.goto(`${siteOrigin}/`);
  await page.waitForFunction(() => typeof window.bpa === "function" && !window.bpa.q);
  await page.click("#open");
  await page.click("#cart");
  await page.goBack();
  await page.waitForURL(`${siteOrigin}/`);
  await page.click("#checkout");
  await page.waitForURL(`${siteOrigin}/checkout`);
  await page.waitForTimeout(500);

  // The queue batches for up to 2 s before the consumer writes.
  const deadline = Date.now() + 30_000;
  let stats;
  for (;;) {
    stats = (await api("GET", `/analytics/sites/${created.id}/stats?period=7d`, { token })).data;
    if (stats.events >= 6 || Date.now() > deadline) break;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  const expected = { visitors: 1, visits: 1, pageviews: 4, events: 6, revenue: { EUR: 4900 } };
  for (const [key, value] of Object.entries(expected)) {
    if (JSON.stringify(stats[key]) !== JSON.stringify(value))
      throw new Error(`stats.${key} = ${JSON.stringify(stats[key])}, expected ${JSON.stringify(value)} (${JSON.stringify(stats)})`);
  }
  const pages = (await api("GET", `/analytics/sites/${created.id}/breakdown?period=7d&property=page`, { token })).data.items;
  const byPage = Object.fromEntries(pages.map((item) => [item.value, item.pageviews]));
  if (byPage["/"] !== 2 || byPage["/products/42"] !== 1 || byPage["/checkout"] !== 1) throw new Error(`pages: ${JSON.stringify(pages)}`);
  const events = (await api("GET", `/analytics/sites/${created.id}/breakdown?period=7d&property=event`, { token })).data.items.map((item) => item.value).sort();
  if (JSON.stringify(events) !== JSON.stringify(["add_to_cart", "view_item"])) throw new Error(`events: ${JSON.stringify(events)}`);

  const cookies = await context.cookies();
  if (cookies.length > 0) throw new Error(`the tracker set cookies: ${JSON.stringify(cookies)}`);
  const stored = await page.evaluate(() => localStorage.length + sessionStorage.length);
  if (stored > 0) throw new Error("the tracker stored something in the browser");
  if (outside.length > 0) throw new Error(`the page tried to reach other hosts: ${[...new Set(outside)].join(", ")}`);
  if (problems.length > 0) throw new Error(`console errors: ${problems.slice(0, 3).join(" | ")}`);
  console.log(
    `e2e analytics: 4 pageviews (load, pushState, back, a new page) and 2 events (one queued before the script loaded) arrived through the queue; no cookies`,
  );
} catch (error) {
  failed = true;
  console.error(`e2e analytics failed: ${error.stack ?? error}`);
} finally {
  await browser?.close();
  site?.close();
  server?.stop();
  rmSync(persistTo, { recursive: true, force: true });
}
console.log(failed ? "0 passed, 1 failed" : "1 passed, 0 failed");
process.exit(failed ? 1 : 0);
