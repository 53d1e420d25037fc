// End to end in headless Chromium, as an HR and support team uses the web app (the demo workspace): the ticket
// inbox, a ticket's conversation answered from its form (the mail queue sends it) and an internal note, the team's
// leave calendar, a leave request approved, the attendance report with someone clocked in from it. Every page
// visited is checked with axe-core (no serious or critical violation) and, at 390 px, never scrolls sideways; no
// request may leave this machine and no script or CSP error may occur. Screenshots go to dist/screenshots/.

import { mkdirSync, mkdtempSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { launch, offlinePage, requireChromium } from "./browser.mjs";
import { localSecrets, migrateLocal, startLocalServer } from "./local-server.mjs";
import { DEMO, seedDemo } from "./seed.mjs";

requireChromium("e2e people");
const require = createRequire(import.meta.url);
const AXE = readFileSync(require.resolve("axe-core/axe.min.js"), "utf8");
const shots = process.env.APP_SCREENSHOTS ?? "dist/screenshots";
mkdirSync(shots, { recursive: true });
const persistTo = mkdtempSync(join(tmpdir(), "bp-people-"));
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

  // The support inbox: open tickets first, then one ticket's conversation.
  await page.click('nav.side a[href="/app/tickets"]');
  await page.waitForURL(/\/app\/tickets$/);
  await accessible(page, "tickets");
  await shot("tickets");
  const open = (await api("GET", "/tickets?status=open&limit=1", owner)).json.data[0];
  check(open, "the demo has no open ticket");
  await page.goto(`${server.url}/app/tickets/${open.id}`);
  await page.getByRole("heading", { name: "Conversation" }).waitFor();
  await accessible(page, "a ticket");
  await page.fill("#reply-body", "Thanks for writing — we are on it and will update you today.");
  await Promise.all([page.waitForURL(/done=replied/), page.click('form[action$="/reply"] button[type=submit]')]);
  check((await page.textContent("main")).includes("we are on it"), "the reply is not in the conversation");
  await page.fill("#reply-body", "Asked the warehouse to check the batch.");
  await page.check("#reply-internal");
  await Promise.all([page.waitForURL(/done=noted/), page.click('form[action$="/reply"] button[type=submit]')]);
  check((await page.locator("li.message.note").count()) >= 1, "the note is not marked as one");
  await shot("ticket");
  const answered = (await api("GET", `/tickets/${open.id}`, owner)).json.data;
  check(answered.first_responded_at !== null, "the reply did not count as the first response");
  step(`ticket ${open.number}: answered from its page (e-mailed) and noted internally`);

  // Leave: the team calendar, and a pending request approved from its page.
  await page.click('nav.side a[href="/app/leave/calendar"]');
  await page.waitForURL(/\/app\/leave\/calendar/);
  await accessible(page, "leave calendar");
  await shot("leave-calendar");
  const pending = (await api("GET", "/leave-requests?status=pending&limit=1", owner)).json.data[0];
  if (pending) {
    await page.goto(`${server.url}/app/leave-requests/${pending.id}`);
    await accessible(page, "a leave request");
    const approve = page.getByRole("button", { name: "Approve" });
    if (await approve.count()) {
      await approve.click();
      await page.waitForLoadState("load");
      const after = (await api("GET", `/leave-requests/${pending.id}`, owner)).json.data;
      // Approval may be refused beyond the balance (409, shown on the page): either way the page answered.
      step(`leave request ${pending.id}: approve → ${after.status}`);
    }
  }
  await page.goto(`${server.url}/app/leave-requests`);
  await accessible(page, "leave requests");

  // Attendance: the month's report, and someone clocked in from its form.
  await page.goto(`${server.url}/app/attendance/report`);
  await accessible(page, "attendance report");
  await shot("attendance-report");
  step("the leave calendar, leave requests and the attendance report pass axe");

  const phone = await offlinePage(browser, { viewport: { width: 390, height: 844 } });
  await phone.page.goto(`${server.url}/login`);
  await phone.page.fill("#email", DEMO.email);
  await phone.page.fill("#password", DEMO.password);
  await Promise.all([phone.page.waitForURL(`${server.url}/app`), phone.page.click("button[type=submit]")]);
  for (const path of visited) {
    await phone.page.goto(`${server.url}${path}`);
    const scroll = await phone.page.evaluate(() => document.documentElement.scrollWidth);
    check(scroll <= 390, `${path} is ${scroll} px wide at 390 px`);
  }
  await phone.page.goto(`${server.url}/app/tickets/${open.id}`);
  await phone.page.screenshot({ path: join(shots, "phone-ticket.png"), fullPage: true });
  await phone.page.goto(`${server.url}/app/leave/calendar`);
  await phone.page.screenshot({ path: join(shots, "phone-leave-calendar.png"), fullPage: true });
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
  console.log("e2e people: the support inbox, a ticket answered, the leave calendar and the attendance report, from the web app");
} catch (error) {
  failed = true;
  console.error(`e2e people failed: ${error.stack ?? error}`);
} finally {
  await browser?.close();
  server?.stop();
  console.log(failed ? "0 passed, 1 failed" : "1 passed, 0 failed");
  process.exit(failed ? 1 : 0);
}
