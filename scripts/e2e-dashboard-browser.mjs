// End to end in headless Chromium: the web dashboard on the demo workspace. Sign in; every enabled widget;
// change the period; Settings → API: create a token, see it once, use it, revoke it, see the API refuse it;
// Settings → Webhooks: subscribe a local receiver and see a test delivery succeed in the log; turn a package
// off and see its widgets go; open a pro app and see the embedded app receive refreshed tokens; ask the
// assistant; sign out. No request may leave this machine, no CSP violation or script error may occur.
// Screenshots of every page go to dist/screenshots/ (DASHBOARD_SCREENSHOTS to change).

import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { launch, offlinePage, requireChromium } from "./browser.mjs";
import { localSecrets, migrateLocal, startLocalServer } from "./local-server.mjs";
import { DEMO, seedDemo } from "./seed.mjs";

requireChromium("e2e dashboard");
const shots = process.env.DASHBOARD_SCREENSHOTS ?? "dist/screenshots";
mkdirSync(shots, { recursive: true });
const persistTo = mkdtempSync(join(tmpdir(), "bp-dashboard-"));
let server;
let browser;
let receiver;
let failed = false;
const steps = [];
const step = (text) => {
  steps.push(text);
  console.log(`  ✓ ${text}`);
};

async function api(method, path, token, body) {
  const res = await fetch(`${server.url}/api/v1${path}`, {
    method,
    headers: { ...(body ? { "content-type": "application/json" } : {}), ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  return { status: res.status, json: await res.json().catch(() => null) };
}

try {
  migrateLocal({ persistTo });
  seedDemo({ persistTo });
  server = await startLocalServer({ persistTo, quiet: true, vars: { ALLOW_INSECURE_WEBHOOK_URLS: "true", ...localSecrets() } });
  const owner = (await api("POST", "/auth/token", undefined, { email: DEMO.email, password: DEMO.password })).json.token;
  // The demo pro app, served by this worker, plays the embedded app.
  await api("PUT", "/sso/apps/hrm-pro", owner, { app_url: `${server.url}/demo/pro-app`, enabled: true });
  await api("POST", "/sso/apps/hrm-pro/secret", owner);
  const delivered = [];
  receiver = createServer((req, res) => {
    let body = "";
    req.on("data", (chunk) => (body += chunk));
    req.on("end", () => {
      delivered.push(body);
      res.writeHead(200).end("ok");
    });
  });
  await new Promise((resolve) => receiver.listen(0, "127.0.0.1", resolve));

  browser = await launch();
  const { page, outside, problems } = await offlinePage(browser, { viewport: { width: 1360, height: 900 } });
  const shot = (name) => page.screenshot({ path: join(shots, `${name}.png`), fullPage: name !== "dashboard" });

  // Sign in.
  await page.goto(`${server.url}/app`);
  await page.waitForURL(/\/login\?next=%2Fapp$/);
  await shot("login");
  await page.fill("#email", DEMO.email);
  await page.fill("#password", "wrong password");
  await page.click("button[type=submit]");
  await page.getByText("Wrong e-mail or password.").waitFor();
  await page.fill("#password", DEMO.password);
  await page.click("button[type=submit]");
  await page.waitForURL(`${server.url}/app`);
  step("signed in (a wrong password first: one message)");

  // Every widget the API shows this user.
  const expected = (await api("GET", "/dashboard", owner)).json.data.map((widget) => widget.key);
  const shown = await page.$$eval("[data-widget]", (cards) => cards.map((card) => card.getAttribute("data-widget")));
  if (JSON.stringify(shown) !== JSON.stringify(expected))
    throw new Error(`widgets shown ${shown.length}, expected ${expected.length}: ${shown} vs ${expected}`);
  if (shown.length < 20) throw new Error(`only ${shown.length} widgets`);
  if ((await page.$$("[data-widget] svg.chart")).length < 8) throw new Error("the series and breakdowns are not drawn");
  await shot("dashboard");
  step(`the dashboard shows all ${shown.length} widgets, with SVG charts`);

  await page.selectOption("#period", "7d");
  await page.waitForURL(/period=7d/);
  const points = await page.$$eval('[data-widget="sales.new_contacts"] svg title', (titles) => titles[0]?.textContent ?? "");
  if (!points.includes("7 days")) throw new Error(`the period did not change the series: ${points}`);
  step("changing the period redraws the widgets (7 days)");

  // Settings → API.
  await page.click('a[href="/app/settings/api"]');
  await page.fill("#name", "E2E integration");
  await page.uncheck('input[name=scopes][value="write"]');
  await page.check('input[name=scopes][value="contacts:read"]');
  await page.click("form[action='/app/settings/api'] button[type=submit]");
  const secret = (await page.textContent("#new-token"))?.trim();
  if (!secret?.startsWith("bpk_")) throw new Error(`no token shown: ${secret}`);
  await shot("settings-api");
  if ((await api("GET", "/contacts?limit=1", secret)).status !== 200) throw new Error("the new token does not work");
  if ((await api("GET", "/invoices?limit=1", secret)).status !== 403) throw new Error("the new token has more than contacts:read");
  await page.goto(`${server.url}/app/settings/api`);
  if ((await page.content()).includes(secret)) throw new Error("the secret is shown again");
  await page
    .locator("tr", { hasText: secret.slice(-4) })
    .getByRole("button", { name: "Revoke" })
    .click();
  await page.getByText("The token was revoked").waitFor();
  if ((await api("GET", "/contacts?limit=1", secret)).status !== 401) throw new Error("the revoked token still works");
  step("Settings → API: a token created, shown once, used (contacts:read only), revoked, then refused by the API");

  // Settings → Webhooks.
  await page.click('a[href="/app/settings/webhooks"]');
  await page.fill("#url", `http://127.0.0.1:${receiver.address().port}/hooks`);
  await page.click("form[action='/app/settings/webhooks'] button[type=submit]");
  await page.getByText("The endpoint was added.").waitFor();
  await page.getByRole("button", { name: "Send test event" }).first().click();
  await page.getByText("A webhook.test event was sent").waitFor();
  const deadline = Date.now() + 20_000;
  for (;;) {
    if ((await page.locator("[data-delivery] .pill.succeeded").count()) > 0) break;
    if (Date.now() > deadline) throw new Error("no succeeded delivery in the log");
    await page.waitForTimeout(500);
    await page.reload();
  }
  if (!delivered.some((body) => body.includes("webhook.test"))) throw new Error("the receiver got no webhook.test");
  await shot("settings-webhooks");
  step("Settings → Webhooks: an endpoint subscribed, a test event delivered and logged as succeeded");

  // Settings → Packages: turn Quotes and Helpdesk off (they need Sales), then Sales: their widgets go.
  await page.click('a[href="/app/settings/packages"]');
  await shot("settings-packages");
  await page.locator('tr[data-package="quotes"]').getByRole("button", { name: "Turn off" }).click();
  await page.getByText("Quotes is off.").waitFor();
  await page.locator('tr[data-package="helpdesk"]').getByRole("button", { name: "Turn off" }).click();
  await page.getByText("Helpdesk is off.").waitFor();
  await page.locator('tr[data-package="sales"]').getByRole("button", { name: "Turn off" }).click();
  await page.getByText("Sales is off.").waitFor();
  await page.click('a[href="/app"]');
  const afterSales = await page.$$eval("[data-widget]", (cards) => cards.map((card) => card.getAttribute("data-widget")));
  if (afterSales.some((key) => /^(sales|quotes|helpdesk)\./.test(key)) || afterSales.length !== shown.length - 9)
    throw new Error(`sales, quotes or helpdesk widgets remain: ${afterSales}`);
  step(`Settings → Packages: Quotes, Helpdesk and Sales turned off, their 9 widgets left the dashboard (${afterSales.length} remain)`);

  // A pro app, embedded through SSO; lead=56 refreshes 4 s after each 60 s token.
  await page.click('a[href="/app/apps/hrm-pro"]');
  await page.goto(`${server.url}/app/apps/hrm-pro?lead=56`);
  await page.waitForFunction(() => Number(document.body.dataset.refreshes ?? 0) >= 2, undefined, { timeout: 30_000 });
  const app = page.frameLocator("iframe");
  await app.locator("body[data-verified='3']").waitFor({ timeout: 10_000 });
  const user = await app.locator("#user").textContent();
  if (!user?.includes(DEMO.email)) throw new Error(`the app shows ${user}`);
  await shot("app-pro");
  step(`a pro app embedded: it verified 3 tokens (2 refreshed by postMessage) and shows "${user}"`);

  // The assistant.
  await page.click('a[href="/app/assistant"]');
  await page.fill("input[type=text][name=message]", "overdue invoices");
  await page.click("#ask button[type=submit]");
  await page.waitForURL(/\/app\/assistant\?c=conv_/);
  const answer = await page.locator('.msg[data-role="assistant"]').last().textContent();
  if (!/invoice/i.test(answer ?? "")) throw new Error(`the assistant answered: ${answer}`);
  await page.fill("input[type=text][name=message]", "revenue this month");
  await page.click("#ask button[type=submit]");
  await page.locator('.msg[data-role="assistant"]', { hasText: "Revenue (paid in" }).waitFor();
  await shot("assistant");
  step(`the assistant answered "overdue invoices" (${answer?.split("\n")[0]}) and "revenue this month"`);

  // Sign out.
  await page.getByRole("button", { name: "Sign out" }).click();
  await page.waitForURL(`${server.url}/login`);
  await page.goto(`${server.url}/app`);
  await page.waitForURL(/\/login/);
  step("signed out: /app sends to /login again");

  if (outside.length > 0) throw new Error(`pages tried to reach other hosts: ${[...new Set(outside)].slice(0, 5).join(", ")}`);
  // The deliberate wrong password answers 401, which Chromium reports as a failed load; nothing else may.
  const unexpected = problems.filter((text) => !/status of 401/.test(text));
  if (unexpected.length > 0) throw new Error(`console errors: ${unexpected.slice(0, 3).join(" | ")}`);
  console.log(`e2e dashboard: ${steps.length} flows in Chromium, screenshots in ${shots}/`);
} catch (error) {
  failed = true;
  console.error(`e2e dashboard failed: ${error.stack ?? error}`);
} finally {
  await browser?.close();
  receiver?.close();
  server?.stop();
  rmSync(persistTo, { recursive: true, force: true });
}
console.log(failed ? "0 passed, 1 failed" : "1 passed, 0 failed");
process.exit(failed ? 1 : 0);
