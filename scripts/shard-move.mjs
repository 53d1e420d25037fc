// Moves one workspace's business rows to another shard while it keeps serving:
//
//   npm run shard:move -- --workspace 42 --to SHARD_1 [--url https://api.example.com] [--settle-ms 6000]
//
// It drives the worker's operator routes (/ops, bearer OPERATOR_TOKEN: from the environment, else from
// .dev.vars for a local run; --url defaults to the local dev server), so the rows move inside the worker,
// next to the databases:
// 1. copy     every row of the workspace to the target, page by page (the workspace keeps taking writes);
// 2. hold     its writes (503 + Retry-After: 5; reads go on) and wait until every isolate has seen it
//             (the token cache lives 5 s);
// 3. catch up: delete on the target what was deleted since, copy what changed since step 1 began;
// 4. switch   the directory's workspace → shard map, after the worker verified both sides hold the same
//             rows (the same keys, and the rollups the target's triggers rebuilt); writes resume on the target;
// 5. wait until no isolate reads the old shard any more, then delete the old rows.
// Writes are refused only from 2 to 4. A failure before 4 aborts: the copy is dropped, writes resume.
import { existsSync, readFileSync } from "node:fs";
import { parseArgs } from "node:util";

const { values: options } = parseArgs({
  options: {
    workspace: { type: "string" },
    to: { type: "string" },
    url: { type: "string", default: "http://127.0.0.1:8787" },
    "settle-ms": { type: "string", default: "6000" },
  },
});
const workspaceId = Number(options.workspace);
const to = options.to;
const settleMs = Number(options["settle-ms"]);
const token = process.env.OPERATOR_TOKEN ?? (existsSync(".dev.vars") ? /^OPERATOR_TOKEN=(.+)$/m.exec(readFileSync(".dev.vars", "utf8"))?.[1]?.trim() : undefined);
if (!Number.isSafeInteger(workspaceId) || workspaceId <= 0 || !to || !token) {
  console.error("usage: OPERATOR_TOKEN=… npm run shard:move -- --workspace <id> --to <shard binding, e.g. SHARD_1> [--url https://api.example.com]");
  process.exit(2);
}

const log = (message) => console.log(`[shard:move ${new Date().toISOString().slice(11, 23)}] ${message}`);
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

async function step(name, body = {}) {
  const path = `/ops/workspaces/${workspaceId}/move${name ? `/${name}` : ""}`;
  for (let attempt = 1; ; attempt++) {
    let res;
    try {
      res = await fetch(new URL(path, options.url), {
        method: "POST",
        headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
        body: JSON.stringify({ to, ...body }),
      });
    } catch (error) {
      if (attempt >= 5) throw new Error(`${path}: ${error.message}`);
      await sleep(500 * attempt);
      continue;
    }
    const json = await res.json().catch(() => null);
    if (res.ok) return json;
    // Every step is safe to repeat: retry what the server could not do just now.
    if (res.status >= 500 && attempt < 5) {
      await sleep(500 * attempt);
      continue;
    }
    throw new Error(`${path}: ${res.status} ${json?.error?.message ?? JSON.stringify(json)}`);
  }
}

/** Every page of every table (or of the rows changed since `since`) to the target; returns the rows copied. */
async function copyAll(tables, since) {
  let total = 0;
  for (const table of tables) {
    for (let after = 0; after !== null; ) {
      const page = await step("copy", { table, after, ...(since === undefined ? {} : { since }) });
      total += page.copied;
      after = page.next;
    }
  }
  return total;
}

async function main() {
  const plan = await step("");
  if (plan.moving) throw new Error(`workspace ${workspaceId} is already held by another move; finish or abort it first`);
  log(`workspace ${workspaceId}: ${plan.from} → ${plan.to}, ${plan.tables.length} tables`);
  // The worker's clock and this machine's may differ: catch up on a minute more than needed.
  const began = Date.now() - 60_000;
  log(`copy: ${await copyAll(plan.tables)} rows`);

  await step("hold");
  const held = Date.now();
  log(`hold: writes refused; waiting ${settleMs} ms until every isolate has seen it`);
  try {
    await sleep(settleMs);
    let deleted = 0;
    for (const table of [...plan.tables].reverse()) deleted += (await step("prune", { table })).deleted;
    log(`catch-up: ${deleted} rows deleted, ${await copyAll(plan.tables, began)} rows copied`);
    await step("switch");
  } catch (error) {
    log(`aborting: ${error.message}`);
    await step("abort");
    throw error;
  }
  log(`switch: workspace ${workspaceId} is on ${plan.to}; its writes were refused for ${((Date.now() - held) / 1000).toFixed(1)} s`);

  await sleep(settleMs);
  let removed = 0;
  for (let done = false; !done; ) {
    const page = await step("cleanup", { to: plan.from });
    removed += page.deleted;
    done = page.done;
  }
  log(`cleanup: ${removed} rows deleted from ${plan.from}`);
}

try {
  await main();
} catch (error) {
  console.error(`[shard:move] failed: ${error.message}`);
  process.exitCode = 1;
}
