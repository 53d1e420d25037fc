// End to end, outside vitest: the real dev server (wrangler dev, local D1/DO/Queues) delivers
// invoice.created to a receiver on 127.0.0.1, and the official standardwebhooks package verifies it.

import { mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Webhook } from "standardwebhooks";
import { localSecrets, migrateLocal, startLocalServer } from "./local-server.mjs";

const persistTo = mkdtempSync(join(tmpdir(), "bp-e2e-"));
const received = [];
const receiver = createServer((req, res) => {
  let body = "";
  req.on("data", (chunk) => (body += chunk));
  req.on("end", () => {
    received.push({ headers: req.headers, body });
    res.writeHead(200).end("ok");
  });
});
await new Promise((resolve) => receiver.listen(0, "127.0.0.1", resolve));
const receiverUrl = `http://127.0.0.1:${receiver.address().port}/hooks`;

let server;
let failed = false;
try {
  migrateLocal({ persistTo });
  server = await startLocalServer({ persistTo, quiet: true, vars: { ALLOW_INSECURE_WEBHOOK_URLS: "true", ...localSecrets() } });
  const api = async (method, path, token, body) => {
    const res = await fetch(`${server.url}/api/v1${path}`, {
      method,
      headers: { "content-type": "application/json", ...(token ? { authorization: `Bearer ${token}` } : {}) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const json = await res.json();
    if (!res.ok) throw new Error(`${method} ${path} → ${res.status} ${JSON.stringify(json)}`);
    return json;
  };
  const signup = await api("POST", "/auth/signup", undefined, {
    workspace_name: "E2E",
    name: "E2E",
    email: `e2e-${Date.now()}@example.com`,
    password: "e2e-password-123",
  });
  const token = signup.data.token;
  const hook = await api("POST", "/webhooks", token, { url: receiverUrl, events: ["invoice.created"] });
  const customer = await api("POST", "/customers", token, { name: "Receiver Inc", email: "ap@receiver.example" });
  const invoice = await api("POST", "/invoices", token, { customer_id: customer.data.id, items: [{ description: "E2E", quantity: 1, unit_amount: 4200 }] });

  const deadline = Date.now() + 20_000;
  while (received.length === 0 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 100));
  if (received.length === 0) throw new Error("no webhook arrived within 20 s");

  const [delivery] = received;
  const payload = new Webhook(hook.data.secret).verify(delivery.body, {
    "webhook-id": delivery.headers["webhook-id"],
    "webhook-timestamp": delivery.headers["webhook-timestamp"],
    "webhook-signature": delivery.headers["webhook-signature"],
  });
  if (payload.type !== "invoice.created" || payload.data.id !== invoice.data.id || payload.data.number !== invoice.data.number) {
    throw new Error(`unexpected payload ${JSON.stringify(payload)}`);
  }
  console.log(`e2e webhooks: invoice.created for ${payload.data.number} delivered to ${receiverUrl} and verified with standardwebhooks`);
} catch (error) {
  failed = true;
  console.error(`e2e webhooks failed: ${error.stack ?? error}`);
} finally {
  server?.stop();
  receiver.close();
  rmSync(persistTo, { recursive: true, force: true });
}
console.log(failed ? "0 passed, 1 failed" : "1 passed, 0 failed");
process.exit(failed ? 1 : 0);
