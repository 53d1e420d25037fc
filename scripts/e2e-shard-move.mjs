// End to end, outside vitest: `npm run shard:move` moves a busy workspace from DB to SHARD_1 while the
// dev server (wrangler dev, D1 persisted to a directory) serves it. Readers never stop and must always get
// the same data; a writer keeps creating employees and may only be refused (503 + Retry-After) during the
// switch. Afterwards: every acknowledged write is on SHARD_1, nothing of the workspace is left on DB, the
// rollups are right, writes go on, and a webhook receiver gets an event for every acknowledged employee.
import { spawn, spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Webhook } from "standardwebhooks";
import { freePort, localSecrets, migrateLocal, OFFLINE_ENV, startLocalServer } from "./local-server.mjs";

const persistTo = mkdtempSync(join(tmpdir(), "bp-move-"));
const port = await freePort();
const received = new Set(); // employee ids whose employee.onboarded arrived
let secret;
const receiver = createServer((req, res) => {
  let body = "";
  req.on("data", (chunk) => (body += chunk));
  req.on("end", () => {
    try {
      const event = new Webhook(secret).verify(body, req.headers);
      if (event.type === "employee.onboarded") received.add(event.data.id);
    } catch {}
    res.writeHead(204).end();
  });
});
await new Promise((resolve) => receiver.listen(0, "127.0.0.1", resolve));

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
const count = (binding, sql) => {
  // The running server holds the same local SQLite files: a read that finds one locked (SQLITE_BUSY, on a busy
  // machine) is tried again a little later, as a second reader of a live database would.
  for (let attempt = 1; ; attempt++) {
    const run = spawnSync("npx", ["wrangler", "d1", "execute", binding, "--local", "--persist-to", persistTo, "--json", "--command", sql], {
      encoding: "utf8",
      env: { ...process.env, ...OFFLINE_ENV },
    });
    if (run.status === 0 && run.stdout.includes("[")) return JSON.parse(run.stdout.slice(run.stdout.indexOf("[")))[0].results[0];
    const output = `${run.stderr}${run.stdout}`;
    if (attempt >= 5 || !/SQLITE_BUSY|database is locked/.test(output)) throw new Error(`wrangler d1 execute ${binding}: ${output}`);
    Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 1000 * attempt);
  }
};

let server;
let failed = false;
try {
  migrateLocal({ persistTo });
  const secrets = localSecrets();
  server = await startLocalServer({
    port,
    persistTo,
    quiet: true,
    extraArgs: ["--test-scheduled"],
    vars: { ALLOW_INSECURE_WEBHOOK_URLS: "true", OUTBOX_GRACE_SECONDS: "1", REDELIVER_AFTER_SECONDS: "2", RATE_LIMIT_OVERRIDE: "1000000", ...secrets },
  });
  const call = async (method, path, token, body) => {
    const res = await fetch(`${server.url}/api/v1${path}`, {
      method,
      headers: { "content-type": "application/json", ...(token ? { authorization: `Bearer ${token}` } : {}) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { status: res.status, retryAfter: res.headers.get("retry-after"), json: await res.json().catch(() => null) };
  };

  // The first workspace lands on DB (both shards are empty; ties go to the first listed).
  const signup = await call("POST", "/auth/signup", undefined, {
    workspace_name: "Hot Tenant",
    name: "Owner",
    email: `move-${Date.now()}@example.com`,
    password: "move-password-123",
  });
  const token = signup.json.data.token;
  const workspaceId = signup.json.data.workspace_id;
  if (count("DB", `SELECT shard FROM workspaces WHERE id = ${workspaceId}`).shard !== "DB") throw new Error("the first workspace is not on DB");
  await call("PUT", "/subscription", token, { plan: "enterprise" });
  const hook = await call("POST", "/webhooks", token, { url: `http://127.0.0.1:${receiver.address().port}/hooks`, events: ["employee.onboarded"] });
  secret = hook.json.data.secret;
  const project = (await call("POST", "/projects", token, { name: "Website" })).json.data;
  const tasks = [];
  for (let i = 0; i < 12; i++) tasks.push((await call("POST", "/tasks", token, { title: `Task ${i}`, project_id: project.id })).json.data);
  for (const task of tasks.slice(0, 5)) await call("PUT", `/tasks/${task.id}/status`, token, { status: "in_progress" });
  for (const task of tasks.slice(0, 2)) await call("PUT", `/tasks/${task.id}/status`, token, { status: "done" });
  await call("DELETE", `/tasks/${tasks[11].id}`, token);
  const customer = (await call("POST", "/customers", token, { name: "Acme", email: "ap@acme.example" })).json.data;
  const invoice = (await call("POST", "/invoices", token, { customer_id: customer.id, items: [{ description: "Work", quantity: 3, unit_amount: 25_000 }] }))
    .json.data;
  await call("POST", `/invoices/${invoice.id}/send`, token);
  await call("POST", "/payments", token, { invoice_id: invoice.id, amount: 30_000, method: "bank_transfer" });
  const contacts = [];
  for (let i = 0; i < 40; i++) contacts.push((await call("POST", "/contacts", token, { name: `Contact ${i}`, email: `c${i}@move.example` })).json.data);
  const snapshot = async () => ({
    contact: (await call("GET", `/contacts/${contacts[7].id}`, token)).json,
    project: (await call("GET", `/projects/${project.id}`, token)).json,
    invoice: (await call("GET", `/invoices/${invoice.id}`, token)).json,
    widgets: (await call("GET", "/dashboard?widgets=account.outstanding,account.invoices_by_status,taskly.tasks_by_status,taskly.project_progress", token))
      .json,
  });
  // The invoice's e-mail goes out in the background (the mail queue): the snapshot waits until it has.
  for (let i = 0; i < 100 && (await call("GET", `/invoices/${invoice.id}`, token)).json.data.delivery?.status === "queued"; i++) {
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  const before = JSON.stringify(await snapshot());

  // Readers and a writer run through the whole move.
  let moving = true;
  const reads = { ok: 0, bad: [] };
  const reader = async () => {
    while (moving) {
      const res = await call("GET", `/contacts/${contacts[7].id}`, token);
      if (res.status === 200 && res.json.data.name === "Contact 7") reads.ok++;
      else reads.bad.push(res.status);
      const list = await call("GET", "/contacts?limit=5&sort=id", token);
      if (list.status === 200 && list.json.data[0]?.id === contacts[0].id) reads.ok++;
      else reads.bad.push(list.status);
    }
  };
  const writes = []; // { at, status, retryAfter, id }
  const writer = async () => {
    for (let n = 0; moving; n++) {
      const res = await call("POST", "/employees", token, { name: `Hire ${n}`, email: `hire-${n}@move.example` });
      writes.push({ at: Date.now(), status: res.status, retryAfter: res.retryAfter, id: res.json?.data?.id });
      await sleep(res.status === 503 ? 250 : 50);
    }
  };
  const loops = [reader(), reader(), reader(), writer()];
  await sleep(1000);
  const move = spawn(process.execPath, ["scripts/shard-move.mjs", "--workspace", String(workspaceId), "--to", "SHARD_1", "--url", server.url], {
    stdio: ["ignore", "pipe", "inherit"],
    env: { ...process.env, OPERATOR_TOKEN: secrets.OPERATOR_TOKEN },
  });
  move.stdout.on("data", (chunk) => process.stdout.write(chunk));
  const moveStatus = await new Promise((resolve) => move.on("exit", resolve));
  await sleep(1000);
  moving = false;
  await Promise.all(loops);
  if (moveStatus !== 0) throw new Error(`shard:move exited with ${moveStatus}`);

  // Reads never failed and never saw other data.
  if (reads.bad.length > 0) throw new Error(`${reads.bad.length} reads failed or differed during the move: ${reads.bad.slice(0, 10).join(", ")}`);
  // Writes: accepted, or refused with 503 + Retry-After in one window (the switch), accepted again after.
  const refused = writes.filter((write) => write.status === 503);
  const odd = writes.filter((write) => write.status !== 201 && write.status !== 503);
  if (odd.length > 0) throw new Error(`unexpected write statuses: ${odd.map((write) => write.status).join(", ")}`);
  if (refused.length === 0) throw new Error("no write was refused: the switch was not observed");
  if (refused.some((write) => write.retryAfter !== "5")) throw new Error("a refused write had no Retry-After: 5");
  const [first, last] = [writes.indexOf(refused[0]), writes.indexOf(refused.at(-1))];
  if (writes.slice(first, last + 1).some((write) => write.status !== 503)) throw new Error("writes were refused outside one window");
  if (first === 0 || last === writes.length - 1) throw new Error("writes did not succeed both before and after the switch");
  const window = (refused.at(-1).at - refused[0].at) / 1000;

  // The data: the same, on SHARD_1, and nothing of the workspace left on DB.
  const after = JSON.stringify(await snapshot());
  if (after !== before) throw new Error(`the workspace's data changed in the move:\n${before}\n${after}`);
  if (count("DB", `SELECT shard FROM workspaces WHERE id = ${workspaceId}`).shard !== "SHARD_1")
    throw new Error("the directory does not map the workspace to SHARD_1");
  const tables = [
    "contacts",
    "employees",
    "projects",
    "tasks",
    "invoices",
    "payments",
    "events",
    "webhook_deliveries",
    "webhook_endpoints",
    "task_counts",
    "invoice_balances",
    "payment_days",
    "invoice_counters",
  ];
  const sum = tables.map((table) => `(SELECT count(*) FROM ${table} WHERE workspace_id = ${workspaceId})`).join(" + ");
  const left = count("DB", `SELECT ${sum} AS n`).n;
  if (left !== 0) throw new Error(`${left} rows of the workspace are still on DB`);
  const acknowledged = writes.filter((write) => write.status === 201).map((write) => write.id);
  const onShard = count("SHARD_1", `SELECT count(*) AS n FROM employees WHERE workspace_id = ${workspaceId} AND id IN (${acknowledged.join(",")})`).n;
  if (onShard !== acknowledged.length) throw new Error(`${acknowledged.length - onShard} acknowledged employees are missing on SHARD_1`);

  // The workspace works on its new shard: writes, state changes and their rollups.
  const moved = await call("PUT", `/tasks/${tasks[5].id}/status`, token, { status: "done" });
  if (moved.status !== 200) throw new Error(`a state change after the move: ${moved.status}`);
  const counted = (await call("GET", `/projects/${project.id}`, token)).json.data;
  if (counted.completed_task_count !== 3 || counted.task_count !== 11) throw new Error(`project counts after the move: ${JSON.stringify(counted)}`);
  const hired = await call("POST", "/employees", token, { name: "After", email: "after@move.example" });
  if (hired.status !== 201 || hired.json.data.id <= 2 ** 40) throw new Error(`a create after the move: ${hired.status} id ${hired.json?.data?.id}`);
  acknowledged.push(hired.json.data.id);

  // Every acknowledged employee's event arrives (the cron re-sends what the move held up).
  const deadline = Date.now() + 60_000;
  while (acknowledged.some((id) => !received.has(id)) && Date.now() < deadline) {
    await fetch(`${server.url}/cdn-cgi/local/scheduled`).catch(() => {});
    await sleep(1500);
  }
  const missing = acknowledged.filter((id) => !received.has(id));
  if (missing.length > 0) throw new Error(`no employee.onboarded for ${missing.length} acknowledged employees: ${missing.slice(0, 10).join(", ")}`);
  console.log(
    `e2e shard move: ${reads.ok} reads during the move, all answered with the same data; ${acknowledged.length} writes acknowledged, ` +
      `${refused.length} refused with 503 over ${window.toFixed(1)} s; nothing left on DB; every event delivered`,
  );
} catch (error) {
  failed = true;
  console.error(`e2e shard move failed: ${error.stack ?? error}`);
} finally {
  server?.stop("SIGKILL");
  receiver.close();
  rmSync(persistTo, { recursive: true, force: true });
}
console.log(failed ? "0 passed, 1 failed" : "1 passed, 0 failed");
process.exit(failed ? 1 : 0);
