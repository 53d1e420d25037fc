// npm run dev [-- --port 8788]: migrate the local D1, seed the demo workspace (once), serve on
// http://127.0.0.1:<port> (default 8787) and print the demo login.
import { parseArgs } from "node:util";
import "./build-assets.mjs";
import { ensureDevVars, migrateLocal, startLocalServer } from "./local-server.mjs";
import { DEMO, DEMO_VIEWER, seedDemo } from "./seed.mjs";

const { values } = parseArgs({ options: { port: { type: "string", default: "8787" } } });
const port = Number(values.port);
if (!Number.isInteger(port) || port < 1 || port > 65535) {
  console.error(`--port must be a port number, not ${values.port}`);
  process.exit(2);
}

ensureDevVars();
// Wrangler prints a table per migration: kept in a log file, so the console ends with what a developer needs.
const MIGRATION_LOG = ".wrangler/logs/migrations.log";
console.log(`Applying the local D1 migrations (output in ${MIGRATION_LOG})…`);
migrateLocal({ log: MIGRATION_LOG });
console.log("Seeding the demo workspace…");
const seeded = seedDemo();
const server = await startLocalServer({ port, vars: { ALLOW_INSECURE_WEBHOOK_URLS: "true" } }).catch((error) => {
  console.error(`${error.message}\n(npm run dev -- --port 8788 serves on another port)`);
  process.exit(1);
});
for (const signal of ["SIGINT", "SIGTERM"]) {
  process.on(signal, () => {
    server.stop();
    process.exit(0);
  });
}
await connectDemoProApp(server.url);

/** The demo workspace's HRM Pro app points at the demo pro app this server hosts (its port is only known now). */
async function connectDemoProApp(url) {
  const call = (method, path, token, body) =>
    fetch(`${url}/api/v1${path}`, {
      method,
      headers: { "content-type": "application/json", ...(token ? { authorization: `Bearer ${token}` } : {}) },
      body: body ? JSON.stringify(body) : undefined,
    });
  const login = await (await call("POST", "/auth/token", undefined, { email: DEMO.email, password: DEMO.password })).json();
  if (!login.token) return;
  const apps = await (await call("GET", "/sso/apps", login.token)).json();
  const hrmPro = apps.data?.find((app) => app.app === "hrm-pro");
  if (hrmPro?.app_url?.startsWith(url)) return;
  await call("PUT", "/sso/apps/hrm-pro", login.token, { app_url: `${url}/demo/pro-app`, enabled: true });
  await call("POST", "/sso/apps/hrm-pro/secret", login.token);
}

// Wrangler logs the set-up requests above asynchronously: let them land before the banner, so it comes last.
await new Promise((resolve) => setTimeout(resolve, 500));
console.log(`
  Dashboard:  ${server.url}/app   (sign in with the demo login below)
  API:        ${server.url}/api/v1  (reference: ${server.url}/api/v1/docs)
  Demo workspace (${seeded}; npm run seed re-creates it):
    ${DEMO.email} / ${DEMO.password} (owner), ${DEMO_VIEWER.email} / ${DEMO_VIEWER.password} (viewer)
  Try it:       BASE=${server.url}; API=$BASE/api/v1
                TOKEN=$(curl -s -X POST "$API/auth/token" -H 'content-type: application/json' \\
                  -d '{"email":"${DEMO.email}","password":"${DEMO.password}"}' | jq -r .token)
                curl -s "$API/me" -H "authorization: Bearer $TOKEN"
`);
await new Promise((resolve) => server.child.on("exit", resolve));
