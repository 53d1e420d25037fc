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
migrateLocal();
const seeded = seedDemo();
const server = await startLocalServer({ port, vars: { ALLOW_INSECURE_WEBHOOK_URLS: "true" } });
for (const signal of ["SIGINT", "SIGTERM"]) process.on(signal, () => (server.stop(), process.exit(0)));

console.log(`
  Business Platform API on ${server.url}/api/v1  (reference: ${server.url}/api/v1/docs)
  Demo workspace (${seeded}; npm run seed re-creates it):
    ${DEMO.email} / ${DEMO.password} (owner), ${DEMO_VIEWER.email} / ${DEMO_VIEWER.password} (viewer)
  Get a token:  curl -s -X POST ${server.url}/api/v1/auth/token -H 'content-type: application/json' \\
                  -d '{"email":"${DEMO.email}","password":"${DEMO.password}"}'
`);
await new Promise((resolve) => server.child.on("exit", resolve));
