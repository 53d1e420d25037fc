// npm run dev [-- --port 8788]: migrate the local D1, serve on http://127.0.0.1:<port> (default 8787),
// seed the demo workspace and print its login.
import { parseArgs } from "node:util";
import "./build-assets.mjs";
import { ensureDevVars, migrateLocal, startLocalServer } from "./local-server.mjs";

export const DEMO = {
  workspace_name: "Demo Company",
  name: "Demo Owner",
  email: "demo@example.com",
  password: "demo-password-123",
};

const { values } = parseArgs({ options: { port: { type: "string", default: "8787" } } });
const port = Number(values.port);
if (!Number.isInteger(port) || port < 1 || port > 65535) {
  console.error(`--port must be a port number, not ${values.port}`);
  process.exit(2);
}

ensureDevVars();
migrateLocal();
const server = await startLocalServer({ port, vars: { ALLOW_INSECURE_WEBHOOK_URLS: "true" } });
for (const signal of ["SIGINT", "SIGTERM"]) process.on(signal, () => (server.stop(), process.exit(0)));

// Idempotent: the first run creates the workspace, later runs find the e-mail taken (409) and reuse it.
const seeded = await fetch(`${server.url}/api/v1/auth/signup`, {
  method: "POST",
  headers: { "content-type": "application/json" },
  body: JSON.stringify(DEMO),
});
if (seeded.status !== 201 && seeded.status !== 409) {
  console.error(`Seeding the demo workspace failed: ${seeded.status} ${await seeded.text()}`);
}
console.log(`
  Business Platform API on ${server.url}/api/v1  (reference: ${server.url}/api/v1/docs)
  Demo workspace login: ${DEMO.email} / ${DEMO.password}
  Get a token:  curl -s -X POST ${server.url}/api/v1/auth/token -H 'content-type: application/json' \\
                  -d '{"email":"${DEMO.email}","password":"${DEMO.password}"}'
`);
await new Promise((resolve) => server.child.on("exit", resolve));
