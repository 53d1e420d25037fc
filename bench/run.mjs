// npm run bench — throughput and latency of the API next to the runtime's own ceiling (GET /health),
// how list cost grows with data, and webhook fan-out time. Runs the production bundle
// (wrangler deploy --dry-run output) in workerd through wrangler's test harness, with local D1, Durable
// Objects and Queues, and drives it with autocannon from this machine. Writes bench/results.json.
import { execSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import { createServer } from "node:http";
import { gzipSync } from "node:zlib";
import autocannon from "autocannon";
import { Webhook } from "standardwebhooks";
import { createTestHarness } from "wrangler";
import { localSecrets } from "../scripts/local-server.mjs";
import { propertyRollupSql } from "../scripts/seed.mjs";

const DURATION = Number(process.env.BENCH_DURATION ?? 8);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 16);
const SHARDS = process.env.BENCH_SHARDS ?? "DB,SHARD_1";

console.log("building the production bundle…");
execSync("npx wrangler deploy --dry-run --outdir bench/.build", { stdio: "ignore", env: { ...process.env, WRANGLER_SEND_METRICS: "false" } });
const server = createTestHarness({
  workers: [
    {
      configPath: "./wrangler.toml",
      prebuiltWorkerDir: "./bench/.build",
      // Bench-only: lift the per-plan limit so the limiter still runs on every request but never refuses.
      // BENCH_SHARDS=DB runs the same bench on one database (the directory as the only shard).
      vars: { RATE_LIMIT_OVERRIDE: "1000000000", ALLOW_INSECURE_WEBHOOK_URLS: "true", SHARDS: SHARDS, ...localSecrets() },
    },
  ],
});
const { url } = await server.listen();
const base = new URL("/api/v1", url).href;
const worker = server.getWorker();
await worker.applyD1Migrations("DB");
await worker.applyD1Migrations("ANALYTICS_DB");
await worker.applyD1Migrations("SHARD_1");
const env = await worker.getEnv();

async function api(method, path, token, body) {
  const res = await fetch(`${base}${path}`, {
    method,
    headers: { "content-type": "application/json", ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const json = await res.json();
  if (!res.ok) throw new Error(`${method} ${path} → ${res.status} ${JSON.stringify(json)}`);
  return json;
}

let workspaceCount = 0;
async function workspace(label) {
  workspaceCount += 1;
  const email = `bench-${workspaceCount}-${Date.now()}@example.com`;
  const signup = await api("POST", "/auth/signup", undefined, { workspace_name: label, name: "Bench", email, password: "bench-password-123" });
  const { token, workspace_id: id } = signup.data;
  await api("PUT", "/subscription", token, { plan: "enterprise" });
  // Seeds go straight into the workspace's shard.
  const { shard } = await env.DB.prepare("SELECT shard FROM workspaces WHERE id = ?").bind(id).first();
  return { token, id, shard, db: env[shard], email };
}

const now = Date.now();
/** Rows generated inside D1 with a recursive CTE: seeding 100,000 rows is one statement. */
async function seedContacts(ws, count) {
  await ws.db
    .prepare(
      `WITH RECURSIVE seq(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM seq WHERE n < ?1)
     INSERT INTO contacts (workspace_id, name, email, company, created_at, updated_at)
     SELECT ?2, 'Contact ' || n, 'c' || n || '@bench.example', 'Company ' || (n % 50), ?3 - n * 1000, ?3 - n * 1000 FROM seq`,
    )
    .bind(count, ws.id, now)
    .run();
}
async function seedProjects(ws, projects, tasksPerProject, status = "todo") {
  await ws.db
    .prepare(
      `WITH RECURSIVE seq(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM seq WHERE n < ?1)
     INSERT INTO projects (workspace_id, name, status, created_at, updated_at) SELECT ?2, 'Project ' || n, 'active', ?3 - n, ?3 - n FROM seq`,
    )
    .bind(projects, ws.id, now)
    .run();
  if (tasksPerProject > 0) {
    await ws.db
      .prepare(
        `WITH RECURSIVE seq(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM seq WHERE n < ?1)
       INSERT INTO tasks (workspace_id, project_id, title, status, priority, created_at, updated_at)
       SELECT ?2, p.id, 'Task ' || n, CASE WHEN n % 3 = 0 THEN 'done' ELSE ?4 END, 'medium', ?3, ?3 FROM projects p, seq WHERE p.workspace_id = ?2`,
      )
      .bind(tasksPerProject, ws.id, now, status)
      .run();
  }
}
/** The dashboard's workload: 10,000 invoices with payments, 5,000 deals, 2,000 employees, 20,000 tasks. */
async function seedDashboard(ws) {
  const seq = (n) => `WITH RECURSIVE seq(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM seq WHERE n < ${n})`;
  const day = 86_400_000;
  await ws.db.batch([
    ws.db
      .prepare(
        `${seq(200)} INSERT INTO customers (workspace_id, name, currency, created_at, updated_at) SELECT ?1, 'Customer ' || n, CASE WHEN n % 3 = 0 THEN 'EUR' ELSE 'USD' END, ?2, ?2 FROM seq`,
      )
      .bind(ws.id, now),
    ws.db
      .prepare(
        `${seq(10000)} INSERT INTO invoices (workspace_id, customer_id, number, currency, issue_date, due_date, items, status, subtotal, tax_total, total, amount_paid, created_at, updated_at)
       SELECT ?1, c.id, 'INV-' || printf('%06d', n), c.currency, date(?2 / 1000 - (n % 365) * 86400, 'unixepoch'), date(?2 / 1000 - (n % 365) * 86400 + 30 * 86400, 'unixepoch'), '[]',
              CASE n % 5 WHEN 0 THEN 'draft' WHEN 1 THEN 'sent' WHEN 2 THEN 'partially_paid' ELSE 'paid' END, 10000 + n, 0, 10000 + n,
              CASE n % 5 WHEN 2 THEN 5000 WHEN 3 THEN 10000 + n WHEN 4 THEN 10000 + n ELSE 0 END, ?2, ?2
       FROM seq JOIN customers c ON c.workspace_id = ?1 AND c.id = (SELECT min(id) FROM customers WHERE workspace_id = ?1) + n % 200`,
      )
      .bind(ws.id, now),
    ws.db
      .prepare(
        `INSERT INTO payments (workspace_id, invoice_id, amount, currency, method, paid_at, created_at, updated_at)
       SELECT workspace_id, id, amount_paid, currency, 'card', ?2 - (id % 365) * ${day}, ?2, ?2 FROM invoices WHERE workspace_id = ?1 AND amount_paid > 0`,
      )
      .bind(ws.id, now),
    ws.db
      .prepare(
        `${seq(5000)} INSERT INTO deals (workspace_id, name, value, currency, stage, status, closed_at, created_at, updated_at)
       SELECT ?1, 'Deal ' || n, 1000 * (n % 97), CASE WHEN n % 4 = 0 THEN 'EUR' ELSE 'USD' END,
              CASE n % 7 WHEN 0 THEN 'won' WHEN 1 THEN 'lost' WHEN 2 THEN 'proposal' WHEN 3 THEN 'meeting' WHEN 4 THEN 'negotiation' WHEN 5 THEN 'qualification' ELSE 'initial_contact' END,
              CASE n % 7 WHEN 0 THEN 'won' WHEN 1 THEN 'lost' ELSE 'open' END, CASE WHEN n % 7 < 2 THEN ?2 - (n % 365) * ${day} END, ?2, ?2 FROM seq`,
      )
      .bind(ws.id, now),
    ws.db
      .prepare(
        `${seq(2000)} INSERT INTO employees (workspace_id, name, email, department, status, date_of_joining, created_at, updated_at)
       SELECT ?1, 'Employee ' || n, 'e' || n || '@bench.example', CASE n % 6 WHEN 0 THEN NULL ELSE 'Dept ' || (n % 6) END, CASE WHEN n % 20 = 0 THEN 'left' ELSE 'active' END,
              date(?2 / 1000 - (n % 900) * 86400, 'unixepoch'), ?2, ?2 FROM seq`,
      )
      .bind(ws.id, now),
  ]);
  await seedProjects(ws, 200, 100, "todo");
  await ws.db
    .prepare(
      `UPDATE tasks SET completed_at = ?2 - (id % 120) * ${day}, due_date = date(?2 / 1000 - (id % 60) * 86400, 'unixepoch') WHERE workspace_id = ?1 AND status = 'done'`,
    )
    .bind(ws.id, now)
    .run();
  await ws.db
    .prepare(`UPDATE tasks SET due_date = date(?2 / 1000 + (id % 60 - 30) * 86400, 'unixepoch') WHERE workspace_id = ?1 AND status <> 'done'`)
    .bind(ws.id, now)
    .run();
}

const ids = async (table, ws) => (await ws.db.prepare(`SELECT id FROM ${table} WHERE workspace_id = ? ORDER BY id`).bind(ws.id).all()).results.map((r) => r.id);

/** One measured load: warm-up, then DURATION seconds. */
async function measure(name, options) {
  const { token, method = "GET", path, setupRequest, body, headers = {}, connections = CONNECTIONS, amount, page = false } = options;
  const config = {
    url: page ? new URL(path, url).href : `${base}${path}`,
    method,
    connections,
    headers: { "content-type": "application/json", ...(token ? { authorization: `Bearer ${token}` } : {}), ...headers },
    ...(body ? { body } : {}),
    ...(setupRequest ? { requests: [{ setupRequest }] } : {}),
  };
  // A fixed number of requests (slow reports), or DURATION seconds; either after a warm-up.
  await autocannon({ ...config, ...(amount ? { amount: Math.max(2, Math.ceil(amount / 5)) } : { duration: 2 }) });
  const result = await autocannon({ ...config, ...(amount ? { amount } : { duration: DURATION }) });
  const failures = result.non2xx + result.errors + result.timeouts;
  if (failures > 0) console.warn(`  ${name}: ${failures} non-2xx/errors of ${result.requests.total}`);
  return { name, rps: Math.round(result.requests.average), p50_ms: result.latency.p50, p99_ms: result.latency.p99, failures };
}

console.log("seeding…");
const small = await workspace("small");
const big = await workspace("big");
const writes = await workspace("writes");
await seedContacts(small, 1_000);
await seedContacts(big, 100_000);
await seedProjects(small, 25, 4);
await seedProjects(big, 1_000, 10);
const reporting = await workspace("dashboard");
await seedDashboard(reporting);
const smallContacts = await ids("contacts", small);
const smallTasks = await ids("tasks", small);

console.log(`measuring (${CONNECTIONS} connections, ${DURATION} s each; shards ${SHARDS})…`);
const rows = [];
rows.push(await measure("GET /health", { path: "/health" }));
rows.push(await measure("GET /health/ready", { path: "/health/ready" }));
let contactCursor = 0;
rows.push(
  await measure("GET /contacts/{id}", {
    token: small.token,
    path: "/contacts/1",
    setupRequest: (req) => ({ ...req, path: `/api/v1/contacts/${smallContacts[contactCursor++ % smallContacts.length]}` }),
  }),
);
rows.push(await measure("GET /contacts?limit=25", { token: small.token, path: "/contacts?limit=25" }));
let created = 0;
rows.push(
  await measure("POST /contacts", {
    token: writes.token,
    method: "POST",
    path: "/contacts",
    setupRequest: (req) => ({ ...req, body: JSON.stringify({ name: `New ${created}`, email: `new-${created++}@bench.example` }) }),
  }),
);
rows.push(await measure("GET /projects", { token: small.token, path: "/projects" }));
const statuses = ["in_progress", "review", "done", "todo"];
let flip = 0;
rows.push(
  await measure("PUT /tasks/{id}/status", {
    token: small.token,
    method: "PUT",
    path: "/tasks/1/status",
    setupRequest: (req) => {
      const n = flip++;
      return {
        ...req,
        path: `/api/v1/tasks/${smallTasks[n % smallTasks.length]}/status`,
        body: JSON.stringify({ status: statuses[Math.floor(n / smallTasks.length) % 4] }),
      };
    },
  }),
);
rows.push(await measure("GET /dashboard (10k invoices, 5k deals, 2k employees, 20k tasks)", { token: reporting.token, path: "/dashboard" }));
// The assistant: a metric, a filtered list and a ranked aggregate, each next to the API call it compares with.
const assistantRows = [];
for (const [label, message] of [
  ["metric", "revenue this month"],
  ["list", "overdue invoices"],
  ["ranked aggregate", "top 5 customers by outstanding"],
]) {
  assistantRows.push(
    await measure(`POST /assistant/messages (${label}: "${message}", 10k invoices)`, {
      token: reporting.token,
      method: "POST",
      path: "/assistant/messages",
      body: JSON.stringify({ message }),
    }),
  );
}
rows.push(...assistantRows);
// The list call the filtered question makes (its first page and total), and the plain invoice list.
const overdueApi = await measure("GET /invoices?overdue=true&include_total=true&limit=100 (10k invoices)", {
  token: reporting.token,
  path: "/invoices?overdue=true&include_total=true&limit=100",
});
rows.push(overdueApi);
// The first assistant message of a fresh worker (its schema and vocabulary are built on first use): a new
// harness each time, one sign-up, then the message, timed from this machine.
const coldStart = [];
for (let i = 0; i < 3; i++) {
  const fresh = createTestHarness({
    workers: [
      {
        configPath: "./wrangler.toml",
        prebuiltWorkerDir: "./bench/.build",
        vars: { RATE_LIMIT_OVERRIDE: "1000000000", ALLOW_INSECURE_WEBHOOK_URLS: "true", SHARDS, ...localSecrets() },
      },
    ],
  });
  const { url: freshUrl } = await fresh.listen();
  const freshWorker = fresh.getWorker();
  await freshWorker.applyD1Migrations("DB");
  await freshWorker.applyD1Migrations("SHARD_1");
  await freshWorker.applyD1Migrations("ANALYTICS_DB");
  const freshApi = new URL("/api/v1", freshUrl).href;
  const signup = await (
    await fetch(`${freshApi}/auth/signup`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ workspace_name: "Cold", name: "Cold", email: `cold-${i}-${Date.now()}@example.com`, password: "bench-password-123" }),
    })
  ).json();
  const started = performance.now();
  const reply = await fetch(`${freshApi}/assistant/messages`, {
    method: "POST",
    headers: { "content-type": "application/json", authorization: `Bearer ${signup.data.token}` },
    body: JSON.stringify({ message: "overdue invoices" }),
  });
  await reply.text();
  coldStart.push(Math.round(performance.now() - started));
  if (!reply.ok) console.warn(`  cold start: ${reply.status}`);
  await fresh.close();
}
const health = rows[0].rps;
const ready = rows[1];
for (const row of rows) {
  row.ratio_to_health = Number((row.rps / health).toFixed(2));
  row.ratio_to_ready = Number((row.rps / ready.rps).toFixed(2));
}
const row = (name) => rows.find((candidate) => candidate.name === name);

console.log("measuring the web app and search…");
// A signed-in page: the session cookie the login form sets.
const login = await fetch(new URL("/login", url), {
  method: "POST",
  redirect: "manual",
  headers: { "content-type": "application/x-www-form-urlencoded", origin: new URL(url).origin },
  body: new URLSearchParams({ email: reporting.email, password: "bench-password-123" }),
});
const cookie = /bp_session=[^;]+/.exec(login.headers.get("set-cookie") ?? "")?.[0];
if (!cookie) throw new Error(`signing in to the web app failed: ${login.status}`);
const invoicesApi = await measure("GET /api/v1/invoices?limit=25 (10k invoices)", { token: reporting.token, path: "/invoices?limit=25" });
const invoicesPage = await measure("GET /app/invoices (25 rows, signed in, 10k invoices)", { path: "/app/invoices", page: true, headers: { cookie } });
const bigContacts = await ids("contacts", big);
let bigCursor = 0;
const byIdBig = await measure("GET /contacts/{id} (100,000 contacts)", {
  token: big.token,
  path: "/contacts/1",
  setupRequest: (req) => {
    bigCursor += 7919;
    return { ...req, path: `/api/v1/contacts/${bigContacts[bigCursor % bigContacts.length]}` };
  },
});
let query = 0;
const searchBig = await measure("GET /search?q=<a name> (100,000 contacts)", {
  token: big.token,
  path: "/search?q=1",
  // "Contact 4821": a name and a number, as a person types them; each query a different contact.
  setupRequest: (req) => {
    query += 7919;
    return { ...req, path: `/api/v1/search?q=${encodeURIComponent(`contact ${1000 + (query % 99_000)}`)}` };
  },
});
const webRows = [invoicesApi, invoicesPage, byIdBig, searchBig];
console.log("measuring invoicing…");
const billing = await workspace("billing");
const billed = (await api("POST", "/customers", billing.token, { name: "Bench Customer", email: "ap@bench.example" })).data;
const twentyLines = Array.from({ length: 20 }, (_, i) => ({
  description: `Consulting, week ${i + 1}`,
  quantity: 1 + (i % 3),
  unit_amount: 12_500 + i * 100,
  tax_rate: 20,
}));
const billedInvoice = (await api("POST", "/invoices", billing.token, { customer_id: billed.id, items: twentyLines, due_date: "2026-12-31" })).data;
const publicPath = new URL((await api("POST", `/invoices/${billedInvoice.id}/send`, billing.token)).data.public_url).pathname;
const invoiceApi = await measure("GET /invoices/{id} (20 lines)", { token: billing.token, path: `/invoices/${billedInvoice.id}` });
const invoicePublic = await measure("GET /i/{token} (the customer's page, 20 lines)", { path: publicPath, page: true });
// One connection: the latency of a lone request, an upper bound of the CPU time drawing the PDF takes.
const invoicePdfRow = await measure("GET /invoices/{id}/pdf (20 lines, drawn per request, 1 connection)", {
  token: billing.token,
  path: `/invoices/${billedInvoice.id}/pdf`,
  connections: 1,
  amount: 200,
});
// Mail: 300 reminders queued (50 requests at a time), timed until the consumer has sent every one through the simulated binding.
const MAILS = 300;
const mailStart = performance.now();
for (let i = 0; i < MAILS; i += 50) {
  await Promise.all(Array.from({ length: Math.min(50, MAILS - i) }, () => api("POST", `/invoices/${billedInvoice.id}/remind`, billing.token)));
}
const sentCount = async () =>
  (
    await billing.db
      .prepare("SELECT count(*) AS n FROM mail_messages WHERE workspace_id = ? AND kind = 'invoice_reminder' AND status = 'sent'")
      .bind(billing.id)
      .first()
  ).n;
while ((await sentCount()) < MAILS && performance.now() - mailStart < 120_000) await new Promise((resolve) => setTimeout(resolve, 100));
const mailSeconds = (performance.now() - mailStart) / 1000;
const mailsSent = await sentCount();
// Lines named by product: the products are read in one statement before the write's batch.
const catalogue = [];
for (let i = 0; i < 20; i++)
  catalogue.push((await api("POST", "/products", billing.token, { name: `Bench product ${i}`, unit_amount: 1_000 + i, tax_rate: 20 })).data);
const productInvoice = await measure("POST /invoices (20 product lines)", {
  token: billing.token,
  method: "POST",
  path: "/invoices",
  body: JSON.stringify({ customer_id: billed.id, items: catalogue.map((product, i) => ({ product_id: product.id, quantity: 1 + (i % 3) })) }),
});
// A 5 MiB receipt (a PNG by its bytes), uploaded again and again onto one expense: one connection, its latency.
const expense = (await api("POST", "/expenses", billing.token, { category: "Travel", amount: 12_000, date: "2026-11-02" })).data;
const receipt = Buffer.alloc(5 * 1024 * 1024);
Buffer.from("89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c489", "hex").copy(receipt);
const receiptUpload = await measure("PUT /expenses/{id}/receipt (5 MiB PNG, 1 connection)", {
  token: billing.token,
  method: "PUT",
  path: `/expenses/${expense.id}/receipt`,
  body: receipt,
  headers: { "content-type": "image/png" },
  connections: 1,
  amount: 40,
});
const invoicingRows = [invoiceApi, invoicePublic, invoicePdfRow, productInvoice, receiptUpload];

console.log("measuring how lists scale…");
const listSmall = await measure("GET /contacts?limit=25 (1,000 contacts)", { token: small.token, path: "/contacts?limit=25" });
const listBig = await measure("GET /contacts?limit=25 (100,000 contacts)", { token: big.token, path: "/contacts?limit=25" });
const projectsSmall = await measure("GET /projects (25 projects)", { token: small.token, path: "/projects" });
const projectsBig = await measure("GET /projects (1,000 projects, 10,000 tasks)", { token: big.token, path: "/projects" });

console.log("measuring webhook fan-out…");
const hooks = await workspace("hooks");
await seedProjects(hooks, 1, 0);
const [project] = await ids("projects", hooks);
await hooks.db
  .prepare(
    `WITH RECURSIVE seq(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM seq WHERE n < 1000)
   INSERT INTO tasks (workspace_id, project_id, title, status, priority, created_at, updated_at) SELECT ?1, ?2, 'Fan-out ' || n, 'todo', 'medium', ?3, ?3 FROM seq`,
  )
  .bind(hooks.id, project, now)
  .run();
const hookTasks = await ids("tasks", hooks);
const verified = new Set();
let rejected = 0;
let secret;
const receiver = createServer((req, res) => {
  let body = "";
  req.on("data", (chunk) => (body += chunk));
  req.on("end", () => {
    try {
      const event = new Webhook(secret).verify(body, req.headers);
      if (event.type === "task.completed") verified.add(event.data.id);
    } catch {
      rejected += 1;
    }
    res.writeHead(204).end();
  });
});
await new Promise((resolve) => receiver.listen(0, "127.0.0.1", resolve));
secret = (await api("POST", "/webhooks", hooks.token, { url: `http://127.0.0.1:${receiver.address().port}/hooks`, events: ["task.completed"] })).data.secret;
const started = performance.now();
let next = 0;
await autocannon({
  url: `${base}/tasks/1/status`,
  method: "PUT",
  connections: CONNECTIONS,
  amount: hookTasks.length,
  headers: { "content-type": "application/json", authorization: `Bearer ${hooks.token}` },
  requests: [{ setupRequest: (req) => ({ ...req, path: `/api/v1/tasks/${hookTasks[next++]}/status`, body: JSON.stringify({ status: "done" }) }) }],
});
const deadline = Date.now() + 120_000;
while (verified.size < hookTasks.length && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
const fanoutSeconds = Number(((performance.now() - started) / 1000).toFixed(2));
receiver.close();

console.log("measuring analytics…");
const DAY_MS = 86_400_000;
const shop = await workspace("analytics");
const site = async (domain) => (await api("POST", "/analytics/sites", shop.token, { domain })).data;
/**
 * A site's history generated inside D1: `visitors` visitors with 10 events each over 90 days (pageviews
 * over several days; for some, the checkout steps minutes apart on one day, a tenth of them purchasing),
 * then its visits, visitor-days and daily rollups computed from those events as the consumer keeps them.
 */
async function seedAnalytics(siteId, visitors) {
  const events = visitors * 10;
  const start = Date.parse(new Date(now).toISOString().slice(0, 10)) - 89 * DAY_MS;
  const mine = `workspace_id = ${shop.id} AND site_id = ${siteId}`;
  const step = ["view_item", "add_to_cart", "begin_checkout", "add_payment_info", "purchase"];
  // A statement here can run longer than workerd's 5 s keep-alive timeout on a small machine; sent on a
  // socket that has idled past it, the proxy's request fails ("other side closed"). Letting the idle
  // socket expire first makes each long statement open a fresh connection. Retrying instead would
  // re-insert rows that already exist.
  const freshConnection = () => (visitors > 1_000 ? new Promise((resolve) => setTimeout(resolve, 5_100)) : undefined);
  for (let from = 0; from < events; from += 100_000) {
    await freshConnection();
    await env.ANALYTICS_DB.prepare(
      `WITH RECURSIVE seq(n) AS (SELECT CAST(?1 AS INTEGER) UNION ALL SELECT n + 1 FROM seq WHERE n < ?2),
         e AS (SELECT n, n % CAST(?3 AS INTEGER) AS v, n / CAST(?3 AS INTEGER) AS k FROM seq),
         named AS (SELECT n, v, CASE WHEN k >= 5 AND v % 10 < 9 - k THEN json_extract(?7, '$[' || (k - 5) || ']') ELSE 'pageview' END AS name,
                          ?6 + ((v + CASE WHEN k < 5 THEN k * 3 ELSE 15 END) % 90) * ${DAY_MS} + (v % 900) * 60000 + k * 60000 AS ts FROM e)
       INSERT INTO analytics_events (event_key, workspace_id, site_id, visitor, visit_id, name, path, referrer, country, device, revenue_amount, revenue_currency, ts,
                                     ord, browser, os, source, channel, utm_source, utm_medium, utm_campaign)
       SELECT 'bench-' || ?4 || '-' || n, ?5, ?4, printf('%016x', v), ?4 || '.' || printf('%016x', v) || '.' || (ts / ${DAY_MS}), name,
              CASE WHEN name = 'pageview' THEN '/page/' || (v % 50) ELSE '/checkout' END,
              CASE v % 4 WHEN 0 THEN 'google.com' ELSE '' END, CASE v % 3 WHEN 0 THEN 'DE' WHEN 1 THEN 'US' ELSE 'FR' END, CASE v % 5 WHEN 0 THEN 'mobile' ELSE 'desktop' END,
              CASE WHEN name = 'purchase' THEN 2500 + v % 100 * 100 END, CASE WHEN name = 'purchase' THEN 'EUR' END, ts,
              ts * 1024, CASE v % 3 WHEN 0 THEN 'Firefox' ELSE 'Chrome' END, CASE v % 5 WHEN 0 THEN 'Android' ELSE 'Windows' END,
              CASE WHEN v % 4 = 0 THEN 'Google' WHEN v % 6 = 1 THEN 'newsletter' WHEN v % 6 = 3 THEN 'twitter' ELSE '' END,
              CASE WHEN v % 4 = 0 THEN 'Organic Search' WHEN v % 6 = 1 THEN 'Email' WHEN v % 6 = 3 THEN 'Organic Social' ELSE 'Direct' END,
              CASE WHEN v % 4 = 0 THEN '' WHEN v % 6 = 1 THEN 'newsletter' WHEN v % 6 = 3 THEN 'twitter' ELSE '' END,
              CASE WHEN v % 4 = 0 THEN '' WHEN v % 6 = 1 THEN 'email' WHEN v % 6 = 3 THEN 'social' ELSE '' END,
              CASE WHEN v % 4 = 0 THEN '' WHEN v % 6 IN (1, 3) THEN 'spring-' || (v % 8) ELSE '' END
       FROM named`,
    )
      .bind(from, Math.min(from + 100_000, events) - 1, visitors, siteId, shop.id, start, JSON.stringify(step))
      .run();
  }
  await freshConnection();
  await env.ANALYTICS_DB.batch([
    env.ANALYTICS_DB.prepare(
      `INSERT INTO analytics_visits (id, workspace_id, site_id, visitor, day, referrer, started_at, last_at, pageviews, events, entry_page, exit_page,
                                     source, channel, utm_source, utm_medium, utm_campaign)
       SELECT visit_id, workspace_id, site_id, visitor, date(min(ts) / 1000, 'unixepoch'), min(referrer), min(ts), max(ts), sum(name = 'pageview'), count(*),
              coalesce(min(CASE WHEN name = 'pageview' THEN path END), ''), coalesce(max(CASE WHEN name = 'pageview' THEN path END), ''),
              min(source), min(channel), min(utm_source), min(utm_medium), min(utm_campaign)
       FROM analytics_events WHERE ${mine} GROUP BY visit_id`,
    ),
    env.ANALYTICS_DB.prepare(
      `INSERT INTO analytics_visitor_days (workspace_id, site_id, day, visitor, source) SELECT DISTINCT workspace_id, site_id, date(ts / 1000, 'unixepoch'), visitor, 'browser' FROM analytics_events WHERE ${mine}`,
    ),
    env.ANALYTICS_DB.prepare(
      `INSERT INTO analytics_daily (workspace_id, site_id, day, browser_visitors, visitors, visits, pageviews, events, bounces, duration_ms)
       SELECT ${shop.id}, ${siteId}, v.day, (SELECT count(*) FROM analytics_visitor_days d WHERE d.${mine.replaceAll(" AND ", " AND d.")} AND d.day = v.day),
              (SELECT count(*) FROM analytics_visitor_days d WHERE d.${mine.replaceAll(" AND ", " AND d.")} AND d.day = v.day),
              count(*), sum(v.pageviews), sum(v.events), sum(v.pageviews = 1 AND v.events = 1), sum(v.last_at - v.started_at)
       FROM analytics_visits v WHERE v.${mine.replaceAll(" AND ", " AND v.")} GROUP BY v.day`,
    ),
    env.ANALYTICS_DB.prepare(
      `INSERT INTO analytics_daily_revenue (workspace_id, site_id, day, currency, amount)
       SELECT workspace_id, site_id, date(ts / 1000, 'unixepoch'), revenue_currency, sum(revenue_amount) FROM analytics_events WHERE ${mine} AND revenue_amount IS NOT NULL AND name = 'purchase' GROUP BY 3, 4`,
    ),
  ]);
  // The per-property daily rollup, as the consumer keeps it.
  for (const statement of propertyRollupSql(mine)) {
    await freshConnection();
    await env.ANALYTICS_DB.prepare(statement).run();
  }
}
const smallSite = await site("small.bench.example");
const bigSite = await site("big.bench.example");
const seedStarted = performance.now();
await seedAnalytics(smallSite.id, 1_000);
await seedAnalytics(bigSite.id, 100_000);
console.log(`  seeded 10,000 + 1,000,000 events in ${((performance.now() - seedStarted) / 1000).toFixed(1)} s`);
const statsSmall = await measure("GET /analytics/sites/{id}/stats?period=30d (10,000 events)", {
  token: shop.token,
  path: `/analytics/sites/${smallSite.id}/stats?period=30d`,
  connections: 1,
  amount: 200,
});
const statsBig = await measure("GET /analytics/sites/{id}/stats?period=30d (1,000,000 events, 100,000 visitors, 90 days)", {
  token: shop.token,
  path: `/analytics/sites/${bigSite.id}/stats?period=30d`,
  connections: 1,
  amount: 200,
});
const statsFiltered = await measure("GET /analytics/sites/{id}/stats?period=30d&filters=source==Google (1,000,000 events)", {
  token: shop.token,
  path: `/analytics/sites/${bigSite.id}/stats?period=30d&filters=${encodeURIComponent("source==Google")}`,
  connections: 1,
  amount: 100,
});
const statsEventFilter = await measure("GET /analytics/sites/{id}/stats?period=30d&filters=country==DE (1,000,000 events)", {
  token: shop.token,
  path: `/analytics/sites/${bigSite.id}/stats?period=30d&filters=${encodeURIComponent("country==DE")}`,
  connections: 1,
  amount: 50,
});
const statsPageFilter = await measure("GET /analytics/sites/{id}/stats?period=30d&filters=page==/page/7 (1,000,000 events)", {
  token: shop.token,
  path: `/analytics/sites/${bigSite.id}/stats?period=30d&filters=${encodeURIComponent("page==/page/7")}`,
  connections: 1,
  amount: 20,
});
const statsCompared = await measure("GET /analytics/sites/{id}/stats?period=30d&compare=previous_period (1,000,000 events)", {
  token: shop.token,
  path: `/analytics/sites/${bigSite.id}/stats?period=30d&compare=previous_period`,
  connections: 1,
  amount: 200,
});
const utmBreakdown = await measure("GET /analytics/sites/{id}/breakdown?property=utm_source&period=30d (1,000,000 events)", {
  token: shop.token,
  path: `/analytics/sites/${bigSite.id}/breakdown?property=utm_source&period=30d`,
  connections: 1,
  amount: 100,
});
const browserBreakdown = await measure("GET /analytics/sites/{id}/breakdown?property=browser&period=30d (1,000,000 events)", {
  token: shop.token,
  path: `/analytics/sites/${bigSite.id}/breakdown?property=browser&period=30d`,
  connections: 1,
  amount: 100,
});
const utmFiltered = await measure("GET /analytics/sites/{id}/breakdown?property=utm_campaign&filters=channel==Email&period=30d (1,000,000 events)", {
  token: shop.token,
  path: `/analytics/sites/${bigSite.id}/breakdown?property=utm_campaign&period=30d&filters=${encodeURIComponent("channel==Email")}`,
  connections: 1,
  amount: 50,
});
const funnelBig = await measure("GET /analytics/sites/{id}/funnels/checkout/report?period=30d (1,000,000 events)", {
  token: shop.token,
  path: `/analytics/sites/${bigSite.id}/funnels/checkout/report?period=30d`,
  connections: 1,
  amount: 10,
});
const collected = await measure("POST /analytics/collect", {
  method: "POST",
  path: "/analytics/collect",
  body: JSON.stringify({ site: smallSite.site_key, name: "pageview", url: "https://small.bench.example/pricing", referrer: "https://www.google.com/" }),
  headers: { "user-agent": "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36" },
});
collected.ratio_to_health = Number((collected.rps / health).toFixed(2));
// Every request from a new client IP: each is a new per-IP limiter object (keyed hash), the worst case.
let nextIp = 0;
const collectedNewIps = await measure("POST /analytics/collect (a new client IP on every request)", {
  method: "POST",
  path: "/analytics/collect",
  setupRequest: (request) => {
    nextIp += 1;
    return { ...request, headers: { ...request.headers, "cf-connecting-ip": `10.${(nextIp >> 16) & 255}.${(nextIp >> 8) & 255}.${nextIp & 255}` } };
  },
  body: JSON.stringify({ site: smallSite.site_key, name: "pageview", url: "https://small.bench.example/pricing", referrer: "https://www.google.com/" }),
  headers: { "user-agent": "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36" },
});
collectedNewIps.ratio_to_health = Number((collectedNewIps.rps / health).toFixed(2));

const trackerGzip = gzipSync(Buffer.from(await (await fetch(`${base}/analytics/script.js`)).text())).length;

// The consumer on its own: 20,000 events put straight on the queue, one per message (the collector's
// quietest case: under load it packs many into one), timed until all are in ANALYTICS_DB.
const countEvents = async () => (await env.ANALYTICS_DB.prepare("SELECT count(*) AS n FROM analytics_events").first()).n;
await new Promise((resolve) => setTimeout(resolve, 3000));
for (let before = -1, current = await countEvents(); before !== current; before = current, current = await countEvents())
  await new Promise((resolve) => setTimeout(resolve, 2500));
const queued = 20_000;
const baseline = await countEvents();
const ingestStarted = performance.now();
for (let i = 0; i < queued; i += 100) {
  await env.ANALYTICS_QUEUE.sendBatch(
    Array.from({ length: 100 }, (_, j) => ({
      body: {
        v: 1,
        events: [
          {
            workspaceId: shop.id,
            siteId: smallSite.id,
            kind: "browser",
            visitor: (i + j).toString(16).padStart(16, "0"),
            name: "pageview",
            path: "/",
            referrer: "",
            country: "DE",
            device: "desktop",
            ts: Date.now(),
          },
        ],
      },
      contentType: "json",
    })),
  );
}
const ingestDeadline = Date.now() + 120_000;
while ((await countEvents()) < baseline + queued && Date.now() < ingestDeadline) await new Promise((resolve) => setTimeout(resolve, 100));
const ingestSeconds = (performance.now() - ingestStarted) / 1000;
const ingested = (await countEvents()) - baseline;
const analytics = {
  collect_ratio_to_health: collected.ratio_to_health,
  consumer_events_per_second: ingested === queued ? Math.round(queued / ingestSeconds) : null,
  stats_p50_ms_1m_events: statsBig.p50_ms,
  stats_p50_ratio_1m_to_10k: Number((statsBig.p50_ms / Math.max(statsSmall.p50_ms, 0.5)).toFixed(2)),
  checkout_funnel_p50_ms_1m_events: funnelBig.p50_ms,
  collect_new_ip_ratio_to_health: collectedNewIps.ratio_to_health,
  stats_source_filter_p50_ms: statsFiltered.p50_ms,
  stats_country_filter_p50_ms: statsEventFilter.p50_ms,
  stats_page_filter_p50_ms: statsPageFilter.p50_ms,
  stats_compare_ratio: Number((statsCompared.p50_ms / Math.max(statsBig.p50_ms, 1)).toFixed(2)),
  utm_breakdown_p50_ms: utmBreakdown.p50_ms,
  tracker_gzip_bytes: trackerGzip,
  browser_breakdown_p50_ms: browserBreakdown.p50_ms,
  utm_breakdown_filtered_p50_ms: utmFiltered.p50_ms,
  rows: [
    collected,
    collectedNewIps,
    statsSmall,
    statsBig,
    statsFiltered,
    statsEventFilter,
    statsCompared,
    utmBreakdown,
    browserBreakdown,
    utmFiltered,
    funnelBig,
  ],
};

const results = {
  measured_at: new Date().toISOString(),
  machine: { cores: (await import("node:os")).cpus().length, node: process.version, connections: CONNECTIONS, duration_s: DURATION },
  shards: SHARDS.split(","),
  ready_rps: ready.rps,
  get_contact_ratio: row("GET /contacts/{id}").ratio_to_health,
  post_contact_ratio: row("POST /contacts").ratio_to_health,
  get_contact_ratio_to_ready: row("GET /contacts/{id}").ratio_to_ready,
  post_contact_ratio_to_ready: row("POST /contacts").ratio_to_ready,
  projects_ratio_to_ready: row("GET /projects").ratio_to_ready,
  task_status_ratio_to_ready: row("PUT /tasks/{id}/status").ratio_to_ready,
  p99_ratio_to_ready: Object.fromEntries(
    ["GET /contacts/{id}", "POST /contacts", "GET /projects", "PUT /tasks/{id}/status"].map((name) => [
      name,
      Number((row(name).p99_ms / ready.p99_ms).toFixed(2)),
    ]),
  ),
  get_contact_p99_ratio: Number((row("GET /contacts/{id}").p99_ms / rows[0].p99_ms).toFixed(2)),
  dashboard_p50_ratio_to_get_contact: Number(
    (row("GET /dashboard (10k invoices, 5k deals, 2k employees, 20k tasks)").p50_ms / Math.max(row("GET /contacts/{id}").p50_ms, 0.5)).toFixed(2),
  ),
  assistant_metric_p50_ratio_to_list: Number((assistantRows[0].p50_ms / Math.max(row("GET /contacts?limit=25").p50_ms, 0.5)).toFixed(2)),
  assistant_list_p50_ratio_to_list: Number((assistantRows[1].p50_ms / Math.max(row("GET /contacts?limit=25").p50_ms, 0.5)).toFixed(2)),
  assistant_filtered_list_p50_ratio_to_same_call: Number((assistantRows[1].p50_ms / Math.max(overdueApi.p50_ms, 0.5)).toFixed(2)),
  assistant_ranked_aggregate_p50_ratio_to_invoices: Number((assistantRows[2].p50_ms / Math.max(invoicesApi.p50_ms, 0.5)).toFixed(2)),
  assistant_first_message_after_cold_start_ms: coldStart,
  list_scaling_ratio: Number((listBig.p50_ms / listSmall.p50_ms).toFixed(2)),
  invoices_page_ratio_to_api: Number((invoicesPage.rps / invoicesApi.rps).toFixed(2)),
  search_p50_ratio_to_by_id: Number((searchBig.p50_ms / Math.max(byIdBig.p50_ms, 0.5)).toFixed(2)),
  public_invoice_ratio_to_api: Number((invoicePublic.rps / invoiceApi.rps).toFixed(2)),
  invoice_pdf_p50_ms: invoicePdfRow.p50_ms,
  product_invoice_create_p50_ms: productInvoice.p50_ms,
  receipt_upload_5mib_p50_ms: receiptUpload.p50_ms,
  mail_messages_per_second: mailsSent === MAILS ? Number((MAILS / mailSeconds).toFixed(1)) : null,
  projects_scaling_ratio: Number((projectsBig.p50_ms / projectsSmall.p50_ms).toFixed(2)),
  webhook_fanout_seconds: verified.size === hookTasks.length ? fanoutSeconds : null,
  webhook_deliveries_verified: verified.size,
  webhook_signatures_rejected: rejected,
  rows,
  scaling: [listSmall, listBig, projectsSmall, projectsBig],
  web: webRows,
  invoicing: invoicingRows,
  analytics,
};
writeFileSync("bench/results.json", `${JSON.stringify(results, null, 2)}\n`);

const table = [...rows, ...webRows, ...invoicingRows, ...results.scaling, ...analytics.rows].map((row) => ({
  endpoint: row.name,
  "req/s": row.rps,
  "p50 ms": row.p50_ms,
  "p99 ms": row.p99_ms,
  "× /health": row.ratio_to_health ?? "",
  "× /health/ready": row.ratio_to_ready ?? "",
}));
console.table(table);
console.log(`GET /health/ready: ${results.ready_rps} req/s (the ceiling of a request that reads D1)`);
console.log(
  `GET /contacts/{id}: ${results.get_contact_ratio_to_ready}× /health/ready (target ≥ 0.9); POST /contacts: ${results.post_contact_ratio_to_ready}× (target ≥ 0.8)`,
);
console.log(`GET /projects: ${results.projects_ratio_to_ready}× /health/ready, PUT /tasks/{id}/status: ${results.task_status_ratio_to_ready}× (targets ≥ 0.8)`);
console.log(
  `p99 ÷ /health/ready p99: ${Object.entries(results.p99_ratio_to_ready)
    .map(([name, ratio]) => `${name} ${ratio}×`)
    .join(", ")} (targets ≤ 3)`,
);
console.log(`GET /dashboard p50: ${results.dashboard_p50_ratio_to_get_contact}× GET /contacts/{id} p50 (target ≤ 3)`);
console.log(
  `POST /assistant/messages p50 ÷ GET /contacts?limit=25 p50: metric ${results.assistant_metric_p50_ratio_to_list}×, list ${results.assistant_list_p50_ratio_to_list}× (target ≤ 2)`,
);
console.log(
  `assistant: filtered list p50 ${results.assistant_filtered_list_p50_ratio_to_same_call}× the same list call (target ≤ 2); ranked aggregate p50 ${results.assistant_ranked_aggregate_p50_ratio_to_invoices}× GET /invoices (target ≤ 3); first message in a fresh isolate ${coldStart.map((ms) => `${ms} ms`).join(", ")} (target ≤ 250 ms)`,
);
console.log(`list p50, 100,000 vs 1,000 contacts: ${results.list_scaling_ratio}× (target ≤ 1.3)`);
console.log(`GET /app/invoices: ${results.invoices_page_ratio_to_api}× GET /api/v1/invoices?limit=25 req/s (target ≥ 0.5)`);
console.log(`GET /search p50 with 100,000 contacts: ${results.search_p50_ratio_to_by_id}× GET /contacts/{id} p50 (target ≤ 2)`);
console.log(`GET /i/{token}: ${results.public_invoice_ratio_to_api}× GET /invoices/{id} req/s (target ≥ 0.7)`);
console.log(`GET /invoices/{id}/pdf p50 (20 lines, one connection): ${results.invoice_pdf_p50_ms} ms (target ≤ 50 ms of CPU)`);
console.log(`mail consumer: ${results.mail_messages_per_second} messages/s through the simulated binding`);
console.log(
  `POST /invoices with 20 product lines p50: ${results.product_invoice_create_p50_ms} ms (two D1 round trips, proved by test/products-quotes.test.ts)`,
);
console.log(`PUT /expenses/{id}/receipt, 5 MiB p50: ${results.receipt_upload_5mib_p50_ms} ms (target ≤ 200)`);
console.log(`GET /projects p50, 1,000 vs 25 projects: ${results.projects_scaling_ratio}× (target ≤ 1.3)`);
console.log(`POST /analytics/collect: ${analytics.collect_ratio_to_health}× /health (target ≥ 0.7)`);
console.log(`analytics consumer: ${analytics.consumer_events_per_second ?? `only ${ingested} of ${queued}`} events/s written (target ≥ 2,000)`);
console.log(
  `stats?period=30d p50 at 1,000,000 events: ${analytics.stats_p50_ms_1m_events} ms (target ≤ 100), ${analytics.stats_p50_ratio_1m_to_10k}× the p50 at 10,000 (target ≤ 1.5)`,
);
console.log(`checkout funnel report p50 at 1,000,000 events: ${analytics.checkout_funnel_p50_ms_1m_events} ms (target ≤ 3,000)`);
console.log(`POST /analytics/collect, a new IP every request: ${analytics.collect_new_ip_ratio_to_health}× /health (target ≥ 0.7)`);
console.log(
  `stats with one filter p50: source==Google ${analytics.stats_source_filter_p50_ms} ms, country==DE ${analytics.stats_country_filter_p50_ms} ms, page==/page/7 ${analytics.stats_page_filter_p50_ms} ms (target ≤ 150)`,
);
console.log(`stats compare=previous_period: ${analytics.stats_compare_ratio}× stats alone (target ≤ 2)`);
console.log(
  `breakdown p50: utm_source ${analytics.utm_breakdown_p50_ms} ms (target ≤ 150), browser ${analytics.browser_breakdown_p50_ms} ms, utm_campaign filtered by channel ${analytics.utm_breakdown_filtered_p50_ms} ms`,
);
console.log(`tracker script.js: ${analytics.tracker_gzip_bytes} bytes gzipped (target ≤ 1,024)`);
console.log(`webhook fan-out: ${verified.size}/1000 task.completed verified in ${fanoutSeconds} s (target ≤ 30 s); ${rejected} bad signatures`);
await server.close();
process.exit(0);
