// End to end in headless Chromium, as a new user runs the business in the web app (the demo workspace):
// sign in → create a customer → an invoice with two lines → send it (the mail queue e-mails it; the customer
// opens its public page and downloads the PDF) → record a payment → see it paid; a
// contact with a bad e-mail shows the message; a deal moves on the board (dragged); a task is completed on
// the board; a CSV with a bad row imports nothing, then a good one imports; search finds a record; a viewer
// sees no create controls and a forged POST gets 403. Every page visited is checked with axe-core (no
// serious or critical violation) and, at 390 px, never scrolls sideways. No request may leave this machine
// and no script or CSP error may occur. Screenshots go to dist/screenshots/ (APP_SCREENSHOTS to change).

import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { launch, offlinePage, requireChromium } from "./browser.mjs";
import { localSecrets, migrateLocal, startLocalServer } from "./local-server.mjs";
import { DEMO, DEMO_VIEWER, seedDemo } from "./seed.mjs";

requireChromium("e2e app");
const require = createRequire(import.meta.url);
const AXE = readFileSync(require.resolve("axe-core/axe.min.js"), "utf8");
const shots = process.env.APP_SCREENSHOTS ?? "dist/screenshots";
mkdirSync(shots, { recursive: true });
const persistTo = mkdtempSync(join(tmpdir(), "bp-app-"));
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
  const path = new URL(page.url()).pathname + new URL(page.url()).search;
  visited.add(path);
  // Evaluated through the DevTools protocol, which the page's CSP does not govern (no page script runs it).
  const violations = await page.evaluate(
    `${AXE}; axe.run(document, { resultTypes: ["violations"] }).then((r) => r.violations.filter((v) => v.impact === "serious" || v.impact === "critical").map((v) => v.id + ": " + v.nodes.slice(0, 3).map((n) => n.target.join(" ")).join(", ")))`,
  );
  check(violations.length === 0, `axe on ${label} (${path}): ${violations.join("; ")}`);
}

try {
  migrateLocal({ persistTo });
  seedDemo({ persistTo });
  server = await startLocalServer({ persistTo, quiet: true, vars: { ALLOW_INSECURE_WEBHOOK_URLS: "true", ...localSecrets() } });
  const owner = (await api("POST", "/auth/token", undefined, { email: DEMO.email, password: DEMO.password })).json.token;

  browser = await launch();
  const { page, outside, problems } = await offlinePage(browser, { viewport: { width: 1280, height: 900 } });
  const shot = (name, fullPage = true) => page.screenshot({ path: join(shots, `${name}.png`), fullPage });
  page.on("dialog", (dialog) => dialog.accept());

  // Sign in.
  await page.goto(`${server.url}/login`);
  await accessible(page, "sign-in");
  await page.fill("#email", DEMO.email);
  await page.fill("#password", DEMO.password);
  await Promise.all([page.waitForURL(`${server.url}/app`), page.click("button[type=submit]")]);
  await accessible(page, "dashboard");
  step("signed in");

  // A customer, by its form.
  await page.click('nav.side a[href="/app/customers"]');
  await page.waitForURL(/\/app\/customers$/);
  await accessible(page, "customers");
  await page.click('a[href="/app/customers/new"]');
  await accessible(page, "new customer");
  await page.fill("#field-name", "Globex Browser Test");
  await page.fill("#field-email", "ap@globex-browser.example");
  await page.fill("#field-currency", "EUR");
  await page.fill("#field-billing-city", "Springfield");
  await Promise.all([page.waitForURL(/\/app\/customers\/\d+\?done=created$/), page.click("main form.record-form button[type=submit]")]);
  const customerId = Number(/customers\/(\d+)/.exec(page.url())[1]);
  await page.getByText("The customer was created.").waitFor();
  await accessible(page, "customer");
  step(`created customer ${customerId}`);

  // An invoice with two lines: the second row added by the editor's button.
  await page.goto(`${server.url}/app/invoices/new`);
  await accessible(page, "invoice editor");
  await page.selectOption("#field-customer_id", String(customerId));
  await page.fill("#field-currency", "EUR");
  await page.fill("#items-0-description", "Consulting");
  await page.fill("#items-0-quantity", "3");
  await page.fill("#items-0-unit_amount", "150.00");
  await page.fill("#items-1-description", "Travel");
  await page.fill("#items-1-quantity", "1");
  await page.fill("#items-1-unit_amount", "80.25");
  await page.fill("#items-1-tax_rate", "20");
  const rowsBefore = await page.$$eval("[data-invoice-editor] tbody tr", (rows) => rows.length);
  await page.click("[data-add-line]");
  check((await page.$$eval("[data-invoice-editor] tbody tr", (rows) => rows.length)) === rowsBefore + 1, "Add a line added no row");
  const previewTotal = await page.textContent("[data-total=total]");
  check(previewTotal?.includes("546.30"), `the editor's total reads ${previewTotal}, not 546.30`);
  await shot("invoice-editor", false);
  await Promise.all([page.waitForURL(/\/app\/invoices\/\d+\?done=created$/), page.click("main form.record-form button[type=submit]")]);
  const invoiceId = Number(/invoices\/(\d+)/.exec(page.url())[1]);
  const invoice = (await api("GET", `/invoices/${invoiceId}`, owner)).json.data;
  check(invoice.total === 54630 && invoice.items.length === 2, `invoice total ${invoice.total}, ${invoice.items.length} lines`);
  step(`created invoice ${invoice.number} with two lines (546.30 EUR)`);

  // Send it, then record the payment from its page.
  await Promise.all([page.waitForURL(/done=send$/), page.click("form[action$='/send'] button")]);
  await page.getByText("The invoice was sent.").waitFor();
  await accessible(page, "sent invoice");
  // The mail queue sends it (the simulated Email Service binding); the page then says so, with the public link.
  const sentAt = Date.now();
  let delivered;
  while (Date.now() - sentAt < 20_000) {
    delivered = (await api("GET", `/invoices/${invoiceId}`, owner)).json.data;
    if (delivered.delivery?.status !== "queued") break;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  check(delivered.delivery?.status === "sent", `the invoice's e-mail is ${JSON.stringify(delivered.delivery)}`);
  await page.reload();
  check(
    (await page.textContent("section[aria-label=Delivery]")).includes(`E-mailed to ${delivered.delivery.to}`),
    "the invoice page does not say it was e-mailed",
  );
  check((await page.textContent("#public-link")) === delivered.public_url, "the invoice page does not show its public link");
  await shot("invoice-detail");
  step(`the mail queue e-mailed it to ${delivered.delivery.to}; its page shows the delivery and the public link`);

  // The customer's side: the public page (no login) and its PDF.
  // A person's browser: headless Chromium says "HeadlessChrome", which the page counts as a link scanner, not a view.
  const customer = await offlinePage(browser, {
    viewport: { width: 1280, height: 900 },
    userAgent: "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/142.0.0.0 Safari/537.36",
  });
  await customer.page.goto(delivered.public_url);
  const publicText = await customer.page.textContent("main");
  for (const expected of [invoice.number, "€546.30", "Balance due", "Download PDF"]) check(publicText.includes(expected), `the public page lacks ${expected}`);
  await accessible(customer.page, "the customer's invoice page");
  await customer.page.screenshot({ path: join(shots, "invoice-public.png"), fullPage: true });
  const [download] = await Promise.all([customer.page.waitForEvent("download"), customer.page.click("text=Download PDF")]);
  const pdf = readFileSync(await download.path());
  check(pdf.subarray(0, 5).toString() === "%PDF-", "Download PDF did not give a PDF");
  check(download.suggestedFilename() === `${invoice.number}.pdf`, `the PDF is named ${download.suggestedFilename()}`);
  check((await api("GET", `/invoices/${invoiceId}`, owner)).json.data.viewed_at !== null, "opening the page did not set viewed_at");
  await customer.page.setViewportSize({ width: 390, height: 844 });
  await customer.page.reload();
  const publicWidth = await customer.page.evaluate(() => document.documentElement.scrollWidth);
  check(publicWidth <= 390, `the public page is ${publicWidth} px wide at 390 px`);
  await customer.page.screenshot({ path: join(shots, "phone-invoice-public.png"), fullPage: true });
  check(customer.outside.length === 0, `the customer's page sent requests off the machine: ${customer.outside.join(", ")}`);
  check(customer.problems.length === 0, `the customer's page: ${customer.problems.join("; ")}`);
  await customer.context.close();
  step(`the customer opened ${delivered.public_url.replace(/[0-9A-Za-z]{43}$/, "{token}")} and its PDF (${pdf.length} bytes); viewed_at set`);

  await page.click("text=Record a payment");
  await page.waitForURL(/\/app\/payments\/new\?/);
  await accessible(page, "payment form");
  check((await page.inputValue("#field-amount")) === "546.30", "the payment form is not prefilled with 546.30");
  await page.selectOption("#field-method", "bank_transfer");
  await Promise.all([page.waitForURL(/\/app\/payments\/\d+\?done=created$/), page.click("main form.record-form button[type=submit]")]);
  await page.goto(`${server.url}/app/invoices/${invoiceId}`);
  check((await page.textContent("dl.facts")).includes("paid"), "the invoice page does not show paid");
  check((await api("GET", `/invoices/${invoiceId}`, owner)).json.data.status === "paid", "the API does not say paid");
  step("sent it, recorded the payment, and it is paid");
  await page.goto(`${server.url}/app/invoices`);
  await accessible(page, "invoices");
  await shot("invoices-list", false);

  // A contact with a bad e-mail: the message next to the field, what was typed kept.
  await page.goto(`${server.url}/app/contacts/new`);
  await page.fill("#field-name", "Bad Mail");
  await page.fill("#field-email", "not-an-email");
  await page.click("main form.record-form button[type=submit]");
  await page.locator("#email-error").waitFor();
  check((await page.textContent("#email-error")).includes("valid e-mail"), "no e-mail message");
  check((await page.inputValue("#field-name")) === "Bad Mail", "the typed name was lost");
  await accessible(page, "contact form with an error");
  await page.fill("#field-email", "bad.mail@example.com");
  await Promise.all([page.waitForURL(/\/app\/contacts\/\d+\?done=created$/), page.click("main form.record-form button[type=submit]")]);
  step("a bad e-mail is shown next to its field; fixed, the contact is created");

  // A deal dragged on the board.
  const deal = (await api("POST", "/deals", owner, { name: "Drag me", value: 5000, stage: "qualification" })).json.data;
  await page.goto(`${server.url}/app/deals?view=board`);
  await accessible(page, "deals board");
  await shot("deals-board", false);
  await page.goto(`${server.url}/app/deals?view=board&q=Drag%20me`);
  await Promise.all([page.waitForURL(/done=moved/), page.dragAndDrop(`.card-item[data-id="${deal.id}"]`, '.lane[data-lane="proposal"]')]);
  check((await api("GET", `/deals/${deal.id}`, owner)).json.data.stage === "proposal", "the dragged deal is not in proposal");
  step("dragged a deal to proposal on the board");

  // A task completed on its board (the card's own form, without dragging).
  const project = (await api("POST", "/projects", owner, { name: "Browser project" })).json.data;
  const task = (await api("POST", "/tasks", owner, { title: "Finish the walk", project_id: project.id })).json.data;
  await page.goto(`${server.url}/app/tasks?view=board&project_id=${project.id}`);
  await accessible(page, "tasks board");
  await page.selectOption(`#move-${task.id}`, "done");
  await Promise.all([page.waitForURL(/done=moved/), page.click(`.card-item[data-id="${task.id}"] form.move button`)]);
  check((await api("GET", `/tasks/${task.id}`, owner)).json.data.status === "done", "the task is not done");
  step("completed a task on the board");

  // CSV import: a bad row imports nothing; a good file imports.
  const before = (await api("GET", "/contacts?include_total=true&limit=1", owner)).json.meta.total;
  const csvFile = join(persistTo, "contacts.csv");
  writeFileSync(csvFile, "name,email,company\nRow Two,row.two@example.com,A\nRow Three,not-an-email,B\n");
  await page.goto(`${server.url}/app/contacts/import`);
  await accessible(page, "import");
  await page.setInputFiles("#import-file", csvFile);
  await page.click("main form[enctype] button[type=submit]");
  await page.getByText("Row 3: email").waitFor();
  check((await api("GET", "/contacts?include_total=true&limit=1", owner)).json.meta.total === before, "a bad file wrote contacts");
  writeFileSync(csvFile, "name,email,company\nRow Two,row.two@example.com,A\nRow Three,row.three@example.com,B\n");
  await page.setInputFiles("#import-file", csvFile);
  await page.click("main form[enctype] button[type=submit]");
  await page.getByText("2 rows ready to import").waitFor();
  await accessible(page, "import preview");
  await Promise.all([page.waitForURL(/done=imported/), page.click("text=Import 2 rows")]);
  check((await api("GET", "/contacts?include_total=true&limit=1", owner)).json.meta.total === before + 2, "the good file did not import 2 contacts");
  step("a CSV with a bad row imported nothing; the fixed file imported 2 contacts");

  // Search from the header.
  await page.fill("#search-q", "Globex Browser");
  await Promise.all([page.waitForURL(/\/app\/search\?q=/), page.press("#search-q", "Enter")]);
  await accessible(page, "search");
  await page.click(`a[href="/app/customers/${customerId}"]`);
  await page.waitForURL(new RegExp(`/app/customers/${customerId}$`));
  step("searched from the header and opened the customer");

  // Settings → Chat: a wrong linking code is shown next to its field.
  await page.goto(`${server.url}/app/settings/chat`);
  await page.fill("#code", "AAAA-AAAA");
  await page.click("main form button[type=submit]");
  await page.locator("#code-error").waitFor();
  await accessible(page, "Settings → Chat");
  await shot("settings-chat", false);
  step("Settings → Chat refuses a wrong linking code next to its field");

  // Every page visited, at 390 px: nothing scrolls sideways (and the navigation folds behind Menu).
  const phone = await offlinePage(browser, { viewport: { width: 390, height: 844 } });
  phone.page.on("dialog", (dialog) => dialog.accept());
  await phone.page.goto(`${server.url}/login`);
  await phone.page.fill("#email", DEMO.email);
  await phone.page.fill("#password", DEMO.password);
  await Promise.all([phone.page.waitForURL(`${server.url}/app`), phone.page.click("button[type=submit]")]);
  check(!(await phone.page.isVisible("nav.side")), "the navigation is not folded at 390 px");
  await phone.page.click(".top .menu");
  check(await phone.page.isVisible("nav.side"), "Menu does not open the navigation");
  for (const path of visited) {
    if (path.startsWith("/login")) continue;
    await phone.page.goto(`${server.url}${path}`);
    const width = await phone.page.evaluate(() => document.documentElement.scrollWidth);
    check(width <= 390, `${path} is ${width} px wide at 390 px`);
  }
  await phone.page.goto(`${server.url}/app/invoices`);
  await phone.page.screenshot({ path: join(shots, "phone-invoices.png") });
  step(`${visited.size} pages at 390 px: none scrolls sideways`);

  // A viewer: no create controls, and a forged POST is refused.
  const viewer = await offlinePage(browser, { viewport: { width: 1280, height: 900 } });
  await viewer.page.goto(`${server.url}/login`);
  await viewer.page.fill("#email", DEMO_VIEWER.email);
  await viewer.page.fill("#password", DEMO_VIEWER.password);
  await Promise.all([viewer.page.waitForURL(`${server.url}/app`), viewer.page.click("button[type=submit]")]);
  await viewer.page.goto(`${server.url}/app/contacts`);
  check((await viewer.page.locator('a[href="/app/contacts/new"]').count()) === 0, "a viewer sees New contact");
  await accessible(viewer.page, "contacts as a viewer");
  const csrf = await viewer.page.getAttribute('input[name="csrf"]', "value");
  const forged = await viewer.page.request.post(`${server.url}/app/contacts`, {
    form: { csrf, name: "Forged", email: "forged@example.com" },
    headers: { origin: server.url },
    maxRedirects: 0,
  });
  check(forged.status() === 403, `a viewer's POST answered ${forged.status()}`);
  check((await api("GET", "/contacts?q=forged", owner)).json.data.length === 0, "the forged contact was written");
  step("a viewer sees no create controls; a forged POST gets 403 and writes nothing");

  for (const [name, seen] of [
    ["owner", { outside, problems }],
    ["phone", phone],
    ["viewer", viewer],
  ]) {
    check(seen.outside.length === 0, `${name}: requests left the machine: ${seen.outside.join(", ")}`);
    // A refused form answers 400/409 on purpose; the browser logs that as a failed load, which is not a fault.
    const faults = seen.problems.filter((problem) => !/the server responded with a status of 4\d\d/.test(problem));
    check(faults.length === 0, `${name}: script or CSP errors: ${faults.join("; ")}`);
  }
  step(`axe-core: no serious or critical violation on ${visited.size} pages`);
  console.log("e2e app: the business run from the web app, end to end");
} catch (error) {
  failed = true;
  console.error(`e2e app failed: ${error.stack ?? error}`);
} finally {
  await browser?.close();
  server?.stop();
  console.log(failed ? "0 passed, 1 failed" : "1 passed, 0 failed");
  process.exit(failed ? 1 : 0);
}
