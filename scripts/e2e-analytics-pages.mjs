// End to end in headless Chromium: the analytics pages of the web app, on the local worker (wrangler dev on
// a free port, with its own INSTANCE_ID: the real collector, the analytics queue and its consumer,
// ANALYTICS_DB). A site gets traffic from several sources, devices and browsers (POST /analytics/collect as
// the tracker sends it); then the owner signs in, opens Analytics (the site with its snippet) and the site's
// dashboard, clicks a source row — the filter chip shows and the numbers narrow — and removes the chip to get
// back. A shared link (made through the API) opens in a fresh browser without a login and shows the same
// dashboard. Every page is checked with axe-core (no serious or critical violation), at 1280 and 390 px
// (nothing scrolls sideways), with no request leaving the machine and no script or CSP error. Screenshots
// go to a temporary directory (ANALYTICS_SCREENSHOTS to choose one), printed at the end.

import { mkdirSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { launch, offlinePage, requireChromium } from "./browser.mjs";
import { localSecrets, migrateLocal, startLocalServer } from "./local-server.mjs";

requireChromium("e2e analytics pages");
const require = createRequire(import.meta.url);
const AXE = readFileSync(require.resolve("axe-core/axe.min.js"), "utf8");
const persistTo = mkdtempSync(join(tmpdir(), "bp-analytics-pages-"));
const shots = process.env.ANALYTICS_SCREENSHOTS ?? mkdtempSync(join(tmpdir(), "bp-analytics-shots-"));
mkdirSync(shots, { recursive: true });
const OWNER = { email: "owner@pages-shop.example", password: "correct horse battery" };
const DOMAIN = "shop.example.com";
let server;
let browser;
let failed = false;
const step = (text) => console.log(`  ✓ ${text}`);
const check = (ok, message) => {
  if (!ok) throw new Error(message);
};

async function api(method, path, { token, body, headers } = {}) {
  const res = await fetch(`${server.url}/api/v1${path}`, {
    method,
    headers: { ...(token ? { authorization: `Bearer ${token}` } : {}), ...(body ? { "content-type": "application/json" } : {}), ...headers },
    body: body ? JSON.stringify(body) : undefined,
  });
  const json = await res.json().catch(() => null);
  if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${JSON.stringify(json)}`);
  return json;
}

const CHROME = (v) => `Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/${v}.0.0.0 Safari/537.36`;
const MAC = (v) => `Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/${v}.1 Safari/605.1.15`;
const FIREFOX = (v) => `Mozilla/5.0 (X11; Linux x86_64; rv:${v}.0) Gecko/20100101 Firefox/${v}.0`;
const IPHONE = (v) =>
  `Mozilla/5.0 (iPhone; CPU iPhone OS ${v}_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/${v}.1 Mobile/15E148 Safari/604.1`;
const ANDROID = (v) => `Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/${v}.0.0.0 Mobile Safari/537.36`;

/** Visitors (a user agent each: a visitor is its IP and user agent) and what they do, from several sources. */
const VISITORS = [
  { ua: CHROME(131), country: "DE", referrer: "https://www.google.com/", pages: ["/", "/pricing", "/signup"], events: ["signup"] },
  { ua: CHROME(130), country: "DE", referrer: "https://www.google.com/", pages: ["/", "/blog/launch"] },
  { ua: MAC(17), country: "FR", referrer: "https://www.google.com/", pages: ["/pricing"] },
  { ua: IPHONE(18), country: "US", referrer: "https://t.co/xyz", pages: ["/", "/blog/launch"] },
  { ua: ANDROID(131), country: "US", referrer: "https://t.co/abc", pages: ["/"] },
  { ua: FIREFOX(133), country: "GB", referrer: "https://news.ycombinator.com/item?id=1", pages: ["/", "/pricing"] },
  {
    ua: FIREFOX(132),
    country: "NL",
    referrer: "",
    landing: "?utm_source=newsletter&utm_medium=email&utm_campaign=june",
    pages: ["/", "/shop/tea"],
    shop: true,
  },
  { ua: CHROME(129), country: "DE", referrer: "", pages: ["/shop/tea", "/checkout"], shop: true, purchase: 4900 },
  { ua: MAC(16), country: "", referrer: "https://duckduckgo.com/", pages: ["/"] },
];

async function seed(siteKey) {
  let sent = 0;
  const send = async (visitor, name, path, extra = {}) => {
    const headers = { "user-agent": visitor.ua, ...(visitor.country ? { "cf-ipcountry": visitor.country } : {}) };
    const body = { site: siteKey, name, url: `https://${DOMAIN}${path}`, ...(visitor.referrer ? { referrer: visitor.referrer } : {}), ...extra };
    await api("POST", "/analytics/collect", { body, headers });
    sent += 1;
  };
  for (const visitor of VISITORS) {
    for (const [i, path] of visitor.pages.entries()) await send(visitor, "pageview", i === 0 && visitor.landing ? `${path}${visitor.landing}` : path);
    for (const name of visitor.events ?? []) await send(visitor, name, visitor.pages.at(-1));
    if (visitor.shop) {
      await send(visitor, "view_item", "/shop/tea", { props: { sku: "TEA-042" } });
      await send(visitor, "add_to_cart", "/shop/tea");
      if (visitor.purchase) {
        await send(visitor, "begin_checkout", "/checkout");
        await send(visitor, "add_payment_info", "/checkout");
        await send(visitor, "purchase", "/checkout", { revenue: { amount: visitor.purchase, currency: "EUR" } });
      }
    }
  }
  return sent;
}

/** axe-core on the page as it is: serious and critical violations fail the walk. */
async function accessible(page, label) {
  // Evaluated through the DevTools protocol, which the page's CSP does not govern (no page script runs it).
  const violations = await page.evaluate(
    `${AXE}; axe.run(document, { resultTypes: ["violations"] }).then((r) => r.violations.filter((v) => v.impact === "serious" || v.impact === "critical").map((v) => v.id + ": " + v.nodes.slice(0, 3).map((n) => n.target.join(" ")).join(", ")))`,
  );
  check(violations.length === 0, `axe on ${label} (${new URL(page.url()).pathname}): ${violations.join("; ")}`);
}

async function notWider(page, width, label) {
  const scroll = await page.evaluate(() => document.documentElement.scrollWidth);
  check(scroll <= width, `${label} is ${scroll} px wide at ${width} px`);
}

const statOf = async (page, key) => (await page.textContent(`[data-stat="${key}"] .stat`))?.trim();

async function signIn(page) {
  await page.goto(`${server.url}/login`);
  await page.fill("#email", OWNER.email);
  await page.fill("#password", OWNER.password);
  await Promise.all([page.waitForURL(`${server.url}/app`), page.click("button[type=submit]")]);
}

try {
  migrateLocal({ persistTo });
  server = await startLocalServer({ persistTo, quiet: true, vars: { ALLOW_INSECURE_WEBHOOK_URLS: "true", ...localSecrets() } });
  const token = (await api("POST", "/auth/signup", { body: { workspace_name: "Pages Shop", name: "Owner", ...OWNER } })).data.token;
  const site = (await api("POST", "/analytics/sites", { token, body: { domain: DOMAIN } })).data;
  await api("POST", `/analytics/sites/${site.id}/funnels`, {
    token,
    body: {
      name: "Pricing to signup",
      steps: [
        { type: "page", value: "/pricing" },
        { type: "page", value: "/signup" },
      ],
    },
  });
  await api("POST", `/analytics/sites/${site.id}/goals`, { token, body: { type: "event", value: "signup" } });
  await api("POST", `/analytics/sites/${site.id}/goals`, { token, body: { type: "page", value: "/pricing" } });
  const sent = await seed(site.site_key);
  // The queue batches before its consumer writes: wait for every event.
  const deadline = Date.now() + 30_000;
  let stats;
  for (;;) {
    stats = (await api("GET", `/analytics/sites/${site.id}/stats?period=7d`, { token })).data;
    if (stats.events >= sent || Date.now() > deadline) break;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  check(stats.events === sent, `${stats.events} of ${sent} events arrived`);
  check(stats.visitors === VISITORS.length, `${stats.visitors} visitors, expected ${VISITORS.length}`);
  step(`seeded ${sent} events of ${stats.visitors} visitors from Google, Twitter, Hacker News, a newsletter, DuckDuckGo and direct`);

  browser = await launch();
  const desk = await offlinePage(browser, { viewport: { width: 1280, height: 900 } });
  const { page } = desk;
  await signIn(page);

  // The sites page: the site with its snippet and its dashboard's link.
  await page.goto(`${server.url}/app/analytics`);
  const snippet = (await page.textContent(`#snippet-${site.id}`)).trim();
  check(snippet === `<script defer src="${server.url}/api/v1/analytics/script.js" data-site="${site.site_key}"></script>`, `the snippet reads ${snippet}`);
  await accessible(page, "analytics sites");
  await page.screenshot({ path: join(shots, "analytics-sites-1280.png"), fullPage: true });
  step("Analytics lists the site with its tracker snippet");

  // The dashboard, from the sites page.
  await Promise.all([page.waitForURL(new RegExp(`/app/analytics/${site.id}$`)), page.click(`[data-site="${site.id}"] a.button`)]);
  await page.selectOption("#period", "7d");
  await page.waitForURL(/period=7d/);
  check((await statOf(page, "visitors")) === String(VISITORS.length), `the dashboard shows ${await statOf(page, "visitors")} visitors`);
  check((await statOf(page, "revenue")) === "49.00 EUR", `the dashboard shows revenue ${await statOf(page, "revenue")}`);
  check((await page.getAttribute("[data-realtime]", "data-realtime")) === String(VISITORS.length), "the realtime count is not every visitor");
  check((await page.locator('[data-funnel="checkout"] [data-step]').count()) === 5, "the checkout funnel has not 5 step rows");
  check((await page.locator("[data-funnel] [data-step]").count()) === 7, "the custom funnel's steps are missing");
  check((await page.locator('[data-rows="goal"] tr[data-value]').count()) === 2, "the goals panel does not list both goals");
  await accessible(page, "dashboard");
  await page.screenshot({ path: join(shots, "dashboard-1280.png"), fullPage: true });
  const total = Number(await statOf(page, "visitors"));
  step(`the dashboard shows ${total} visitors, 49.00 EUR, ${total} current visitors and both funnels`);

  // A source row filters the whole page; its chip takes the filter off again.
  await Promise.all([page.waitForURL(/filters=source%3D%3DGoogle/), page.click('[data-rows="source"] tr[data-value="Google"] a')]);
  check(await page.isVisible('[data-filter="source==Google"]'), "no filter chip for source is Google");
  const narrowed = Number(await statOf(page, "visitors"));
  check(narrowed === 3, `filtered by Google the dashboard shows ${narrowed} visitors, expected 3`);
  check((await page.locator('[data-rows="source"] tr').count()) === 2, "the sources panel still lists other sources");
  await accessible(page, "dashboard filtered");
  await page.screenshot({ path: join(shots, "dashboard-filtered-1280.png"), fullPage: true });
  await Promise.all([page.waitForURL((url) => !url.search.includes("filters=")), page.click('[data-filter="source==Google"]')]);
  check(!(await page.isVisible("[data-filters]")), "the chip is still there");
  check(Number(await statOf(page, "visitors")) === total, "removing the chip did not bring every visitor back");
  step(`clicking Google narrowed the page to ${narrowed} visitors with a chip; removing the chip brought back ${total}`);

  // Tabs and the chart's metric are links too; hovering a day gives its value.
  await page.click('nav[aria-label="Top sources: show"] a:has-text("Channels")');
  await page.locator('[data-rows="channel"] tr[data-value="Organic Search"]').waitFor();
  await page.click('nav[aria-label="Chart metric"] a:has-text("Pageviews")');
  await page.locator('svg[data-chart="pageviews"]').waitFor();
  const hover = await page.textContent('svg[data-chart="pageviews"] rect[data-point]:last-of-type title');
  check(/pageviews/.test(hover ?? ""), `the chart's hover reads ${hover}`);
  step(`the Channels tab and the Pageviews chart are links; the last day's hover says "${hover}"`);

  // The export downloads a ZIP with the session.
  const [download] = await Promise.all([page.waitForEvent("download"), page.click("[data-export]")]);
  const zip = readFileSync(await download.path());
  check(zip.subarray(0, 2).toString() === "PK", "Export CSV did not give a ZIP");
  step(`Export CSV downloaded ${download.suggestedFilename()} (${zip.length} bytes)`);

  // A shared link, opened in a browser that never signed in.
  const link = (await api("POST", `/analytics/sites/${site.id}/shared-links`, { token, body: { name: "Investors" } })).data;
  const visitor = await offlinePage(browser, { viewport: { width: 1280, height: 900 } });
  await visitor.page.goto(`${link.url}?period=7d`);
  check((await statOf(visitor.page, "visitors")) === String(total), "the shared dashboard does not show every visitor");
  check((await visitor.page.locator("nav.side").count()) === 0, "the shared dashboard shows the app's navigation");
  await accessible(visitor.page, "shared dashboard");
  await visitor.page.screenshot({ path: join(shots, "shared-1280.png"), fullPage: true });
  await Promise.all([visitor.page.waitForURL(/filters=/), visitor.page.click('[data-rows="source"] tr[data-value="Twitter"] a')]);
  check(Number(await statOf(visitor.page, "visitors")) === 2, "the shared dashboard did not narrow to Twitter's 2 visitors");
  step("the shared link shows the dashboard without a login, and filters within it");

  // A password link: the form first, then the dashboard.
  const locked = (await api("POST", `/analytics/sites/${site.id}/shared-links`, { token, body: { name: "Board", password: "open sesame 123" } })).data;
  await visitor.page.goto(locked.url);
  await accessible(visitor.page, "shared link's password form");
  await visitor.page.screenshot({ path: join(shots, "shared-password-1280.png"), fullPage: true });
  await visitor.page.fill("#share-password", "wrong one");
  await visitor.page.click("button[type=submit]");
  await visitor.page.getByText("That password is not right").waitFor();
  await visitor.page.fill("#share-password", "open sesame 123");
  await Promise.all([visitor.page.waitForURL(locked.url), visitor.page.click("button[type=submit]")]);
  check(await visitor.page.isVisible('[data-stat="visitors"]'), "the right password did not open the dashboard");
  step("a password link asks first; a wrong password is refused, the right one opens it");

  // At 390 px: nothing scrolls sideways.
  const phone = await offlinePage(browser, { viewport: { width: 390, height: 844 } });
  await signIn(phone.page);
  for (const path of ["/app/analytics", `/app/analytics/${site.id}?period=7d`, `/app/analytics/${site.id}?period=7d&filters=source%3D%3DGoogle`]) {
    await phone.page.goto(`${server.url}${path}`);
    await notWider(phone.page, 390, path);
  }
  await phone.page.screenshot({ path: join(shots, "dashboard-filtered-390.png"), fullPage: true });
  await phone.page.goto(`${server.url}/app/analytics/${site.id}?period=7d`);
  await accessible(phone.page, "dashboard at 390 px");
  await phone.page.screenshot({ path: join(shots, "dashboard-390.png"), fullPage: true });
  await phone.page.goto(`${server.url}/app/analytics`);
  await phone.page.screenshot({ path: join(shots, "analytics-sites-390.png"), fullPage: true });
  await visitor.page.setViewportSize({ width: 390, height: 844 });
  await visitor.page.goto(`${link.url}?period=7d`);
  await notWider(visitor.page, 390, "the shared dashboard");
  await visitor.page.screenshot({ path: join(shots, "shared-390.png"), fullPage: true });
  step("at 390 px the sites page, the dashboard and the shared dashboard fit the screen");

  for (const [name, seen] of [
    ["owner", desk],
    ["visitor", visitor],
    ["phone", phone],
  ]) {
    check(seen.outside.length === 0, `${name}: requests left the machine: ${seen.outside.join(", ")}`);
    // A wrong password answers 401 on purpose; the browser logs that as a failed load, which is not a fault.
    const faults = seen.problems.filter((problem) => !/the server responded with a status of 4\d\d/.test(problem));
    check(faults.length === 0, `${name}: script or CSP errors: ${faults.join("; ")}`);
  }
  step("no request left the machine; no script or CSP error");
  console.log(`e2e analytics pages: sites, dashboard, filters, export and shared links in the browser; screenshots in ${shots}`);
} catch (error) {
  failed = true;
  console.error(`e2e analytics pages failed: ${error.stack ?? error}`);
  console.error(`screenshots so far: ${shots}`);
} finally {
  await browser?.close();
  server?.stop();
  rmSync(persistTo, { recursive: true, force: true });
}
console.log(failed ? "0 passed, 1 failed" : "1 passed, 0 failed");
process.exit(failed ? 1 : 0);
