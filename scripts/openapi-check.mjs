// npm test (last step): the OpenAPI document as code generators and linters see it.
// 1. Runs the production bundle in workerd (wrangler's test harness, local bindings, offline) and reads
//    GET /api/v1/openapi.json.
// 2. Lints it with Redocly CLI (recommended rules + ours in redocly.yaml): any error fails.
// 3. Generates TypeScript types with openapi-typescript, type-checks test/client/typed-client.ts (an
//    openapi-fetch client written against them), then runs that client against the same worker.
import { execFileSync, execSync } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { createTestHarness } from "wrangler";
import { localSecrets } from "./local-server.mjs";

process.env.CLOUDFLARE_CF_FETCH_ENABLED = "false";
process.env.WRANGLER_SEND_METRICS = "false";
const out = "dist/openapi";
mkdirSync(out, { recursive: true });
const quiet = {
  stdio: ["ignore", "inherit", "inherit"],
  env: { ...process.env, WRANGLER_SEND_METRICS: "false", REDOCLY_TELEMETRY: "off", REDOCLY_SUPPRESS_UPDATE_NOTICE: "true" },
};

execSync(`npx wrangler deploy --dry-run --outdir ${out}/bundle`, { ...quiet, stdio: "ignore" });
const server = createTestHarness({
  workers: [{ configPath: "./wrangler.toml", prebuiltWorkerDir: `${out}/bundle`, vars: { ALLOW_INSECURE_WEBHOOK_URLS: "true", ...localSecrets() } }],
});
let failed = false;
try {
  const { url } = await server.listen();
  const worker = server.getWorker();
  await worker.applyD1Migrations("DB");
  await worker.applyD1Migrations("ANALYTICS_DB");
  await worker.applyD1Migrations("SHARD_1");
  const document = await (await fetch(new URL("/api/v1/openapi.json", url))).json();
  writeFileSync(`${out}/openapi.json`, `${JSON.stringify(document, null, 2)}\n`);
  console.log(`openapi: ${Object.keys(document.paths).length} paths, ${Object.keys(document.webhooks ?? {}).length} webhooks → ${out}/openapi.json`);

  execFileSync("npx", ["redocly", "lint", `${out}/openapi.json`, "--config", "redocly.yaml", "--format", "summary"], quiet);
  execFileSync("npx", ["openapi-typescript", `${out}/openapi.json`, "--output", `${out}/schema.d.ts`], { ...quiet, stdio: "ignore" });
  execFileSync("npx", ["tsc", "-p", "test/client/tsconfig.json"], quiet);
  console.log("openapi: Redocly lint clean; openapi-typescript types generated; the typed client type-checks");
  execFileSync("npx", ["tsx", "test/client/typed-client.ts", new URL("/api/v1", url).href], quiet);
} catch (error) {
  failed = true;
  console.error(`openapi check failed: ${error.message}`);
} finally {
  await server.close();
}
process.exit(failed ? 1 : 0);
