// End to end in headless Chromium: a web page on another origin loads the tracker from the local worker
// (wrangler dev: the real collector, the analytics queue and its consumer, ANALYTICS_DB), calls
// window.bpa before and after the script loads, navigates with pushState and back, then to a new page.
// The pageviews and events arrive through the queue and show in the stats and breakdowns; the page sets
// no cookie and stores nothing.
// Then what the browser sends, read from the collect requests' bodies (not from the collector's answers):
// every event carries the page load's id and its seq, 0, 1, 2, … in the order the page fired them (a burst
// of five bpa() calls in one click included); the script element's options — outbound link and file
// download clicks (the default extensions and a list of one's own), hash routing, the 404 page — send their
// events, and an outbound click that leaves the page still gets its event out; with Global Privacy Control
// on, the page sends nothing at all.

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

/**
 * The shop's pages: a product list with a client-side route, and a checkout page; /lab, /custom and
 * /missing (answered 404) load the tracker with options, on a page of links, a burst button and a hash route.
 */
function shopPages(apiOrigin, siteKey) {
  const layout = (body, { attributes = "", head = "" } = {}) => `<!doctype html><html><head><meta charset="utf-8"><title>Shop</title>${head}
<script>window.bpa = window.bpa || function () { (bpa.q = bpa.q || []).push(arguments) };</script>
<script defer src="${apiOrigin}/api/v1/analytics/script.js" data-site="${siteKey}"${attributes}></script></head><body>${body}</body></html>`;
  const lab = (port) => `<h1>Lab</h1>
<button id="burst" onclick="for (var i = 0; i < 5; i++) bpa('burst_' + i, { props: { i: i } })">Burst</button>
<a id="out" href="${PARTNER}/offer?ref=lab">Partner</a>
<a id="pdf" href="/files/report.pdf">Report</a>
<a id="zip" href="/files/archive.zip"><span>Archive</span></a>
<a id="inside" href="/files/about">About</a>
<a id="hash" href="#/settings">Settings</a>
<a id="away" href="http://127.0.0.1:${port}/landing">Our other host</a>`;
  return createServer((req, res) => {
    res.setHeader("content-type", "text/html; charset=utf-8");
    const port = req.socket.localPort;
    if (req.url.startsWith("/checkout")) return res.end(layout("<h1>Checkout</h1>"));
    if (req.url.startsWith("/landing")) return res.end("<!doctype html><title>Landing</title><h1>Landing</h1>");
    if (req.url.startsWith("/lab")) return res.end(layout(lab(port), { attributes: " data-outbound-links data-file-downloads data-hash-routing data-404" }));
    if (req.url.startsWith("/custom")) return res.end(layout(lab(port), { attributes: ' data-file-downloads=".csv, ZIP"' }));
    if (req.url.startsWith("/missing")) {
      res.statusCode = 404;
      return res.end(layout("<h1>Not found</h1>", { attributes: " data-404", head: '<meta name="bpa-404">' }));
    }
    res.end(
      layout(`<h1>Products</h1>
<script>bpa("view_item", { props: { sku: "42" } });</script>
<button id="open" onclick="history.pushState({}, '', '/products/42')">Product 42</button>
<button id="cart" onclick="bpa('add_to_cart', { props: { sku: '42' }, revenue: { amount: 4900, currency: 'EUR' } })">Add to cart</button>
<a id="checkout" href="/checkout">Checkout</a>`),
    );
  });
}

/** An outside host the pages link to: its requests are answered 204 No Content, so a click on it leaves the page where it is. */
const PARTNER = "https://partner.example";

/**
 * The collect requests the context's pages make, as sent: { body (parsed), status } in the order the browser
 * issued them (status: the collector's answer once it came, shown for information only).
 */
function watchCollect(context, apiOrigin) {
  const sent = [];
  const byRequest = new Map();
  context.on("request", (request) => {
    if (request.url() !== `${apiOrigin}/api/v1/analytics/collect`) return;
    const entry = { method: request.method(), contentType: request.headers()["content-type"], raw: request.postData(), body: null, status: null };
    try {
      entry.body = JSON.parse(entry.raw);
    } catch {}
    byRequest.set(request, entry);
    sent.push(entry);
  });
  context.on("response", (response) => {
    const entry = byRequest.get(response.request());
    if (entry) entry.status = response.status();
  });
  return sent;
}

async function until(what, condition, timeout = 10_000) {
  const deadline = Date.now() + timeout;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

const LOAD_ID = /^[A-Za-z0-9]{10,16}$/;

/**
 * The page loads in the bodies, in the order they began: each { load, events } with the events sorted by
 * seq, which must run 0, 1, 2, … with no gap or repeat. Every request is a text/plain JSON POST.
 */
function loadsOf(sent) {
  const loads = new Map();
  for (const entry of sent) {
    if (entry.method !== "POST" || !/^text\/plain/.test(entry.contentType ?? "") || !entry.body)
      throw new Error(`not a text/plain JSON POST: ${entry.method} ${entry.contentType} ${entry.raw}`);
    const { load, seq } = entry.body;
    if (typeof load !== "string" || !LOAD_ID.test(load)) throw new Error(`load id ${JSON.stringify(load)} in ${entry.raw}`);
    if (!Number.isInteger(seq)) throw new Error(`seq ${JSON.stringify(seq)} in ${entry.raw}`);
    if (!loads.has(load)) loads.set(load, []);
    loads.get(load).push(entry.body);
  }
  return [...loads].map(([load, events]) => {
    events.sort((a, b) => a.seq - b.seq);
    events.forEach((event, index) => {
      if (event.seq !== index) throw new Error(`load ${load}: seqs ${events.map((e) => e.seq).join(",")}, expected 0…${events.length - 1}`);
    });
    return { load, events };
  });
}

/** One load's events in seq order, compared with [name, check?] pairs (check: a function of the body that throws or returns false). */
function expectEvents(label, { events }, expected) {
  const names = events.map((event) => event.name);
  if (JSON.stringify(names) !== JSON.stringify(expected.map(([name]) => name)))
    throw new Error(`${label}: events in seq order ${JSON.stringify(names)}, expected ${JSON.stringify(expected.map(([name]) => name))}`);
  expected.forEach(([name, check], index) => {
    if (check && check(events[index]) === false) throw new Error(`${label}: ${name} (seq ${index}) sent ${JSON.stringify(events[index])}`);
  });
}

const same = (a, b) => JSON.stringify(a) === JSON.stringify(b);

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

let passed = 0;
/** One check: a failure is reported and counted, and the next check still runs. */
async function check(name, run) {
  try {
    console.log(`e2e analytics, ${name}: ${await run()}`);
    passed++;
  } catch (error) {
    failed = true;
    console.error(`e2e analytics, ${name}, failed: ${error.stack ?? error}`);
  }
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
  let shopSent = [];

  await check("through the queue", async () => {
    const { page, context, outside, problems } = await offlinePage(browser, { userAgent: USER_AGENT });
    shopSent = watchCollect(context, server.url);
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
    // The cart's revenue is stored but not summed: revenue counts on purchases and revenue goals only.
    const expected = { visitors: 1, visits: 1, pageviews: 4, events: 6, revenue: {} };
    for (const [key, value] of Object.entries(expected)) {
      if (JSON.stringify(stats[key]) !== JSON.stringify(value))
        throw new Error(`stats.${key} = ${JSON.stringify(stats[key])}, expected ${JSON.stringify(value)} (${JSON.stringify(stats)})`);
    }
    const pages = (await api("GET", `/analytics/sites/${created.id}/breakdown?period=7d&property=page`, { token })).data.items;
    const byPage = Object.fromEntries(pages.map((item) => [item.value, item.pageviews]));
    if (byPage["/"] !== 2 || byPage["/products/42"] !== 1 || byPage["/checkout"] !== 1) throw new Error(`pages: ${JSON.stringify(pages)}`);
    const events = (await api("GET", `/analytics/sites/${created.id}/breakdown?period=7d&property=event`, { token })).data.items
      .map((item) => item.value)
      .sort();
    if (JSON.stringify(events) !== JSON.stringify(["add_to_cart", "view_item"])) throw new Error(`events: ${JSON.stringify(events)}`);

    const cookies = await context.cookies();
    if (cookies.length > 0) throw new Error(`the tracker set cookies: ${JSON.stringify(cookies)}`);
    const stored = await page.evaluate(() => localStorage.length + sessionStorage.length);
    if (stored > 0) throw new Error("the tracker stored something in the browser");
    if (outside.length > 0) throw new Error(`the page tried to reach other hosts: ${[...new Set(outside)].join(", ")}`);
    if (problems.length > 0) throw new Error(`console errors: ${problems.slice(0, 3).join(" | ")}`);
    await context.close();
    return "4 pageviews (load, pushState, back, a new page) and 2 events (one queued before the script loaded) arrived through the queue; no cookies";
  });

  await check("what the browser sends", async () => {
    const watched = [];
    const noted = (sent) => {
      watched.push(sent);
      return sent;
    };

    // The shop's two page loads: load ids and seqs, the queued call right after the load's pageview.
    const shop = loadsOf(noted(shopSent));
    if (shop.length !== 2 || shop[0].load === shop[1].load) throw new Error(`page loads: ${JSON.stringify(shop)}`);
    const path = (expected) => (event) => new URL(event.url).pathname === expected;
    expectEvents("the product list", shop[0], [
      ["pageview", path("/")],
      ["view_item", (e) => same(e.props, { sku: "42" })],
      ["pageview", path("/products/42")],
      ["add_to_cart", (e) => same(e.revenue, { amount: 4900, currency: "EUR" })],
      ["pageview", path("/")],
    ]);
    expectEvents("the checkout", shop[1], [["pageview", path("/checkout")]]);

    // /lab: every option on. The partner host and the shop's /files answer 204, so those clicks stay on the page.
    const lab = await offlinePage(browser, { userAgent: USER_AGENT });
    const labSent = noted(watchCollect(lab.context, server.url));
    await lab.page.route(`${PARTNER}/**`, (route) => route.fulfill({ status: 204 }));
    await lab.page.route(`${siteOrigin}/files/**`, (route) => route.fulfill({ status: 204 }));
    await lab.page.goto(`${siteOrigin}/lab`);
    await until("the /lab pageview", () => labSent.length >= 1);
    await lab.page.click("#burst");
    await until("the burst", () => labSent.length >= 6);
    for (const [link, count] of [
      ["#out", 7],
      ["#pdf", 8],
      ["#zip", 9],
    ]) {
      await lab.page.click(link);
      await until(`the event of ${link}`, () => labSent.length >= count);
    }
    await lab.page.click("#inside");
    await lab.page.click("#hash");
    await lab.page.waitForURL(`${siteOrigin}/lab#/settings`);
    await until("the hash route's pageview", () => labSent.length >= 10);
    if (!lab.page.url().startsWith(`${siteOrigin}/lab`)) throw new Error(`a click left /lab for ${lab.page.url()}`);
    // An outbound link that does leave the page: its event still goes out (fetch keepalive).
    await lab.page.click("#away");
    await lab.page.waitForURL(/\/landing$/);
    await until("the event of the link that left the page", () => labSent.length >= 11);
    await lab.page.waitForTimeout(500);
    const [labLoad, ...more] = loadsOf(labSent);
    if (more.length > 0) throw new Error(`/lab sent from ${more.length + 1} page loads`);
    const burst = (i) => (e) => same(e.props, { i }) && path("/lab")(e);
    const url =
      (expected, on = "/lab") =>
      (e) =>
        same(e.props, { url: expected }) && path(on)(e);
    expectEvents("/lab", labLoad, [
      ["pageview", (e) => e.url === `${siteOrigin}/lab`],
      ["burst_0", burst(0)],
      ["burst_1", burst(1)],
      ["burst_2", burst(2)],
      ["burst_3", burst(3)],
      ["burst_4", burst(4)],
      ["outbound_link_click", url(`${PARTNER}/offer?ref=lab`)],
      ["file_download", url(`${siteOrigin}/files/report.pdf`)],
      ["file_download", url(`${siteOrigin}/files/archive.zip`)],
      ["pageview", (e) => e.url === `${siteOrigin}/lab#/settings`],
      ["outbound_link_click", (e) => same(e.props, { url: `http://127.0.0.1:${site.address().port}/landing` })],
    ]);
    if (lab.outside.length > 0) throw new Error(`/lab tried to reach other hosts: ${[...new Set(lab.outside)].join(", ")}`);
    // Script errors only: how the collector answers (a refusal shows as "Failed to load resource") is not this check's business.
    const errors = lab.problems.filter((problem) => !problem.startsWith("Failed to load resource"));
    if (errors.length > 0) throw new Error(`/lab errors: ${errors.slice(0, 3).join(" | ")}`);
    await lab.context.close();

    // /custom: only data-file-downloads=".csv, ZIP" — the list replaces the default (no .pdf), no outbound
    // links, and without hash routing a hash change is no new page.
    const custom = await offlinePage(browser, { userAgent: USER_AGENT });
    const customSent = noted(watchCollect(custom.context, server.url));
    await custom.page.route(`${PARTNER}/**`, (route) => route.fulfill({ status: 204 }));
    await custom.page.route(`${siteOrigin}/files/**`, (route) => route.fulfill({ status: 204 }));
    await custom.page.goto(`${siteOrigin}/custom`);
    await until("the /custom pageview", () => customSent.length >= 1);
    for (const link of ["#pdf", "#out", "#zip", "#hash"]) await custom.page.click(link);
    await until("the .zip download", () => customSent.length >= 2);
    await custom.page.waitForTimeout(500);
    const [customLoad] = loadsOf(customSent);
    expectEvents("/custom", customLoad, [
      ["pageview", path("/custom")],
      ["file_download", url(`${siteOrigin}/files/archive.zip`, "/custom")],
    ]);
    await custom.context.close();

    // /missing answers 404 and carries <meta name="bpa-404">: the pageview, then the 404 event.
    const missing = await offlinePage(browser, { userAgent: USER_AGENT });
    const missingSent = noted(watchCollect(missing.context, server.url));
    await missing.page.goto(`${siteOrigin}/missing?from=mail`);
    await until("the 404 event", () => missingSent.length >= 2);
    await missing.page.waitForTimeout(300);
    expectEvents("/missing", loadsOf(missingSent)[0], [
      ["pageview", path("/missing")],
      ["404", (e) => same(e.props, { path: "/missing" })],
    ]);
    await missing.context.close();

    // Global Privacy Control on: nothing at all, whatever the page does; bpa is there and does nothing.
    const gpc = await offlinePage(browser, { userAgent: USER_AGENT });
    await gpc.context.addInitScript(() => Object.defineProperty(Navigator.prototype, "globalPrivacyControl", { get: () => true }));
    const gpcSent = watchCollect(gpc.context, server.url);
    await gpc.page.route(`${PARTNER}/**`, (route) => route.fulfill({ status: 204 }));
    await gpc.page.route(`${siteOrigin}/files/**`, (route) => route.fulfill({ status: 204 }));
    await gpc.page.goto(`${siteOrigin}/`);
    await gpc.page.waitForFunction(() => typeof window.bpa === "function" && !window.bpa.q);
    await gpc.page.click("#cart");
    await gpc.page.click("#open");
    await gpc.page.goto(`${siteOrigin}/lab`);
    await gpc.page.waitForFunction(() => typeof window.bpa === "function" && !window.bpa.q);
    for (const link of ["#burst", "#out", "#pdf", "#hash"]) await gpc.page.click(link);
    await gpc.page.goto(`${siteOrigin}/missing`);
    await gpc.page.waitForFunction(() => typeof window.bpa === "function" && !window.bpa.q);
    await gpc.page.waitForTimeout(1_000);
    if (gpcSent.length > 0) throw new Error(`with Global Privacy Control the pages sent ${JSON.stringify(gpcSent.map((entry) => entry.body))}`);
    await gpc.context.close();

    const statuses = Object.entries(
      Object.groupBy(
        watched.flat().map((entry) => entry.status),
        (status) => status ?? "no answer before the page moved on",
      ),
    )
      .map(([status, list]) => `${status} ×${list.length}`)
      .join(", ");
    return `load ids and seqs 0, 1, 2, … in firing order (a burst of 5 bpa() calls in one click), outbound and download clicks (default and own extensions, one leaving the page), the hash route's pageview and the 404 event were sent; with Global Privacy Control nothing was (the collector answered ${statuses})`;
  });
} catch (error) {
  failed = true;
  console.error(`e2e analytics failed: ${error.stack ?? error}`);
} finally {
  await browser?.close();
  site?.close();
  server?.stop();
  rmSync(persistTo, { recursive: true, force: true });
}
console.log(`${passed} passed, ${failed ? 2 - passed : 0} failed`);
process.exit(failed ? 1 : 0);
