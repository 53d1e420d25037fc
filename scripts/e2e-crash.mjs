// End to end, outside vitest: a crash must not lose a committed write's webhook event.
// The dev server (wrangler dev, D1 persisted to a directory) takes a burst of event-emitting writes and
// is killed with SIGKILL mid-burst: queue messages in flight are lost with the process. It is started
// again on the same directory, the cron sweep is triggered, and a receiver on 127.0.0.1 must get an
// employee.onboarded event for every employee that was committed, and none for one that was not.

import { mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Webhook } from "standardwebhooks";
import { freePort, localSecrets, migrateLocal, startLocalServer } from "./local-server.mjs";

const BURST = 300;
const KILL_AFTER_MS = 1200;
const persistTo = mkdtempSync(join(tmpdir(), "bp-crash-"));
const secrets = localSecrets();
// A free port, kept for the restart after the crash.
const port = await freePort();
const received = new Map(); // webhook-id → employee id
let secret;
let rejected = 0;
const receiver = createServer((req, res) => {
  let body = "";
  req.on("data", (chunk) => (body += chunk));
  req.on("end", () => {
    try {
      const event = new Webhook(secret).verify(body, req.headers);
      received.set(event.id, event.data.id);
    } catch {
      rejected += 1;
    }
    res.writeHead(204).end();
  });
});
await new Promise((resolve) => receiver.listen(0, "127.0.0.1", resolve));

const api = (base) => async (method, path, token, body) => {
  const res = await fetch(`${base}/api/v1${path}`, {
    method,
    headers: { "content-type": "application/json", ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: res.status, json: await res.json().catch(() => null) };
};

let server;
let failed = false;
try {
  migrateLocal({ persistTo });
  server = await startLocalServer({ port, persistTo, quiet: true, vars: { ALLOW_INSECURE_WEBHOOK_URLS: "true", ...secrets } });
  let call = api(server.url);
  const signup = await call("POST", "/auth/signup", undefined, {
    workspace_name: "Crash",
    name: "Crash",
    email: `crash-${Date.now()}@example.com`,
    password: "crash-password-123",
  });
  const token = signup.json.data.token;
  await call("PUT", "/subscription", token, { plan: "enterprise" });
  const hook = await call("POST", "/webhooks", token, { url: `http://127.0.0.1:${receiver.address().port}/hooks`, events: ["employee.onboarded"] });
  secret = hook.json.data.secret;

  // The burst: 16 writers; the server dies under them.
  const acknowledged = new Set();
  let next = 0;
  const writer = async () => {
    while (next < BURST) {
      const n = next++;
      try {
        const res = await call("POST", "/employees", token, { name: `Crash ${n}`, email: `crash-${n}@example.com` });
        if (res.status === 201) acknowledged.add(res.json.data.id);
      } catch {
        return; // the server is gone
      }
    }
  };
  const writers = Array.from({ length: 16 }, writer);
  await new Promise((resolve) => setTimeout(resolve, KILL_AFTER_MS));
  server.stop("SIGKILL");
  await Promise.all(writers);
  await new Promise((resolve) => setTimeout(resolve, 500));

  // Restart on the same data, with short sweep thresholds so the test need not wait ten minutes.
  server = await startLocalServer({
    port,
    persistTo,
    quiet: true,
    extraArgs: ["--test-scheduled"],
    vars: { ALLOW_INSECURE_WEBHOOK_URLS: "true", OUTBOX_GRACE_SECONDS: "1", REDELIVER_AFTER_SECONDS: "1", ...secrets },
  });
  call = api(server.url);
  const committed = new Set();
  for (let cursor = null, more = true; more; ) {
    const page = await call("GET", `/employees?limit=100${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ""}`, token);
    if (page.status !== 200) throw new Error(`listing employees after the restart: ${page.status} ${JSON.stringify(page.json)}`);
    for (const employee of page.json.data) committed.add(employee.id);
    more = page.json.meta.has_more;
    cursor = page.json.meta.next_cursor;
  }
  for (const id of acknowledged) if (!committed.has(id)) throw new Error(`employee ${id} was acknowledged (201) but is not in the database`);

  const deadline = Date.now() + 60_000;
  const arrived = () => new Set(received.values());
  while ([...committed].some((id) => !arrived().has(id)) && Date.now() < deadline) {
    await fetch(`${server.url}/cdn-cgi/local/scheduled`).catch(() => {});
    await new Promise((resolve) => setTimeout(resolve, 1500));
  }
  const got = arrived();
  const missing = [...committed].filter((id) => !got.has(id));
  const phantom = [...got].filter((id) => !committed.has(id));
  console.log(
    `e2e crash: ${BURST} writes fired, killed after ${KILL_AFTER_MS} ms; ${acknowledged.size} acknowledged, ${committed.size} committed; ` +
      `${got.size} employees' events received (${received.size} distinct deliveries), ${missing.length} missing, ${phantom.length} for uncommitted writes, ${rejected} bad signatures`,
  );
  if (committed.size === 0) throw new Error("nothing was committed before the kill: the test proved nothing");
  if (committed.size === BURST) throw new Error("every write committed before the kill: the crash came too late to prove anything");
  if (missing.length > 0) throw new Error(`events lost for committed employees ${missing.slice(0, 10).join(", ")}…`);
  if (phantom.length > 0) throw new Error(`events for employees that do not exist: ${phantom.slice(0, 10).join(", ")}`);
  if (rejected > 0) throw new Error(`${rejected} deliveries failed signature verification`);
} catch (error) {
  failed = true;
  console.error(`e2e crash failed: ${error.stack ?? error}`);
} finally {
  server?.stop("SIGKILL");
  receiver.close();
  rmSync(persistTo, { recursive: true, force: true });
}
console.log(failed ? "0 passed, 1 failed" : "1 passed, 0 failed");
process.exit(failed ? 1 : 0);
