// npm run bench — throughput and latency of the API next to the runtime's own ceiling (GET /health),
// how list cost grows with data, and webhook fan-out time. Runs the production bundle
// (wrangler deploy --dry-run output) in workerd through wrangler's test harness, with local D1, Durable
// Objects and Queues, and drives it with autocannon from this machine. Writes bench/results.json.
import { execSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import { createServer } from "node:http";
import autocannon from "autocannon";
import { Webhook } from "standardwebhooks";
import { createTestHarness } from "wrangler";
import { localSecrets } from "../scripts/local-server.mjs";

const DURATION = Number(process.env.BENCH_DURATION ?? 8);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 16);

console.log("building the production bundle…");
execSync("npx wrangler deploy --dry-run --outdir bench/.build", { stdio: "ignore", env: { ...process.env, WRANGLER_SEND_METRICS: "false" } });
const server = createTestHarness({
  workers: [
    {
      configPath: "./wrangler.toml",
      prebuiltWorkerDir: "./bench/.build",
      // Bench-only: lift the per-plan limit so the limiter still runs on every request but never refuses.
      vars: { RATE_LIMIT_OVERRIDE: "1000000000", ALLOW_INSECURE_WEBHOOK_URLS: "true", ...localSecrets() },
    },
  ],
});
const { url } = await server.listen();
const base = new URL("/api/v1", url).href;
const worker = server.getWorker();
await worker.applyD1Migrations("DB");
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
  const signup = await api("POST", "/auth/signup", undefined, {
    workspace_name: label,
    name: "Bench",
    email: `bench-${workspaceCount}-${Date.now()}@example.com`,
    password: "bench-password-123",
  });
  const { token, workspace_id: id } = signup.data;
  await api("PUT", "/subscription", token, { plan: "enterprise" });
  return { token, id };
}

const now = Date.now();
/** Rows generated inside D1 with a recursive CTE: seeding 100,000 rows is one statement. */
async function seedContacts(ws, count) {
  await env.DB.prepare(
    `WITH RECURSIVE seq(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM seq WHERE n < ?1)
     INSERT INTO contacts (workspace_id, name, email, company, created_at, updated_at)
     SELECT ?2, 'Contact ' || n, 'c' || n || '@bench.example', 'Company ' || (n % 50), ?3 - n * 1000, ?3 - n * 1000 FROM seq`,
  )
    .bind(count, ws.id, now)
    .run();
}
async function seedProjects(ws, projects, tasksPerProject, status = "todo") {
  await env.DB.prepare(
    `WITH RECURSIVE seq(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM seq WHERE n < ?1)
     INSERT INTO projects (workspace_id, name, status, created_at, updated_at) SELECT ?2, 'Project ' || n, 'active', ?3 - n, ?3 - n FROM seq`,
  )
    .bind(projects, ws.id, now)
    .run();
  if (tasksPerProject > 0) {
    await env.DB.prepare(
      `WITH RECURSIVE seq(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM seq WHERE n < ?1)
       INSERT INTO tasks (workspace_id, project_id, title, status, priority, created_at, updated_at)
       SELECT ?2, p.id, 'Task ' || n, CASE WHEN n % 3 = 0 THEN 'done' ELSE ?4 END, 'medium', ?3, ?3 FROM projects p, seq WHERE p.workspace_id = ?2`,
    )
      .bind(tasksPerProject, ws.id, now, status)
      .run();
  }
}
const ids = async (table, ws) => (await env.DB.prepare(`SELECT id FROM ${table} WHERE workspace_id = ? ORDER BY id`).bind(ws.id).all()).results.map((r) => r.id);

/** One measured load: warm-up, then DURATION seconds. */
async function measure(name, options) {
  const { token, method = "GET", path, setupRequest } = options;
  const config = {
    url: `${base}${path}`,
    method,
    connections: CONNECTIONS,
    headers: { "content-type": "application/json", ...(token ? { authorization: `Bearer ${token}` } : {}) },
    ...(setupRequest ? { requests: [{ setupRequest }] } : {}),
  };
  await autocannon({ ...config, duration: 2 });
  const result = await autocannon({ ...config, duration: DURATION });
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
const smallContacts = await ids("contacts", small);
const smallTasks = await ids("tasks", small);

console.log(`measuring (${CONNECTIONS} connections, ${DURATION} s each)…`);
const rows = [];
rows.push(await measure("GET /health", { path: "/health" }));
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
      return { ...req, path: `/api/v1/tasks/${smallTasks[n % smallTasks.length]}/status`, body: JSON.stringify({ status: statuses[Math.floor(n / smallTasks.length) % 4] }) };
    },
  }),
);
const health = rows[0].rps;
for (const row of rows) row.ratio_to_health = Number((row.rps / health).toFixed(2));

console.log("measuring how lists scale…");
const listSmall = await measure("GET /contacts?limit=25 (1,000 contacts)", { token: small.token, path: "/contacts?limit=25" });
const listBig = await measure("GET /contacts?limit=25 (100,000 contacts)", { token: big.token, path: "/contacts?limit=25" });
const projectsSmall = await measure("GET /projects (25 projects)", { token: small.token, path: "/projects" });
const projectsBig = await measure("GET /projects (1,000 projects, 10,000 tasks)", { token: big.token, path: "/projects" });

console.log("measuring webhook fan-out…");
const hooks = await workspace("hooks");
await seedProjects(hooks, 1, 0);
const [project] = await ids("projects", hooks);
await env.DB.prepare(
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

const results = {
  measured_at: new Date().toISOString(),
  machine: { cores: (await import("node:os")).cpus().length, node: process.version, connections: CONNECTIONS, duration_s: DURATION },
  get_contact_ratio: rows[1].ratio_to_health,
  post_contact_ratio: rows[3].ratio_to_health,
  get_contact_p99_ratio: Number((rows[1].p99_ms / rows[0].p99_ms).toFixed(2)),
  list_scaling_ratio: Number((listBig.p50_ms / listSmall.p50_ms).toFixed(2)),
  projects_scaling_ratio: Number((projectsBig.p50_ms / projectsSmall.p50_ms).toFixed(2)),
  webhook_fanout_seconds: verified.size === hookTasks.length ? fanoutSeconds : null,
  webhook_deliveries_verified: verified.size,
  webhook_signatures_rejected: rejected,
  rows,
  scaling: [listSmall, listBig, projectsSmall, projectsBig],
};
writeFileSync("bench/results.json", `${JSON.stringify(results, null, 2)}\n`);

const table = [...rows, ...results.scaling].map((row) => ({
  endpoint: row.name,
  "req/s": row.rps,
  "p50 ms": row.p50_ms,
  "p99 ms": row.p99_ms,
  "× /health": row.ratio_to_health ?? "",
}));
console.table(table);
console.log(`GET /contacts/{id}: ${results.get_contact_ratio}× /health throughput (target ≥ 0.5), p99 ${results.get_contact_p99_ratio}× /health p99 (target ≤ 3)`);
console.log(`POST /contacts: ${results.post_contact_ratio}× /health (target ≥ 0.3)`);
console.log(`list p50, 100,000 vs 1,000 contacts: ${results.list_scaling_ratio}× (target ≤ 1.3)`);
console.log(`GET /projects p50, 1,000 vs 25 projects: ${results.projects_scaling_ratio}× (target ≤ 1.3)`);
console.log(`webhook fan-out: ${verified.size}/1000 task.completed verified in ${fanoutSeconds} s (target ≤ 30 s); ${rejected} bad signatures`);
await server.close();
process.exit(0);
