// Moves one workspace's business rows to another shard while it keeps serving:
//
//   npm run shard:move -- --workspace 42 --to SHARD_1 [--url https://api.example.com] [--settle-ms 6000]
//   npm run shard:move -- --workspace 42 --to SHARD_1 --abort     (undo a move that did not switch)
//
// It drives the worker's operator routes (/ops, bearer OPERATOR_TOKEN: from the environment, else from
// .dev.vars for a local run; --url defaults to the local dev server), so the rows move inside the worker,
// next to the databases:
// 1. copy     every row of the workspace to the target, page by page (the workspace keeps taking writes);
// 2. hold     its writes (503 + Retry-After: 5; reads go on; the hold lapses by itself after 5 minutes)
//             and wait until every isolate has seen it (the token cache lives 5 s);
// 3. catch up: delete on the target what was deleted since, copy what changed since step 1 began;
// 4. switch   the directory's workspace → shard map, after the worker verified that both sides hold the
//             same rows, column by column (a table that still differs is copied whole, up to 3 rounds);
//             writes resume on the target;
// 5. wait until no isolate reads the old shard any more, then delete the old rows.
// Writes are refused only from 2 to 4. A failure or Ctrl-C before 4 aborts: the hold is released, the copy
// dropped.
import { existsSync, readFileSync } from "node:fs";
import { parseArgs } from "node:util";

const { values: options } = parseArgs({
  options: {
    workspace: { type: "string" },
    to: { type: "string" },
    url: { type: "string" },
    "settle-ms": { type: "string", default: "6000" },
    abort: { type: "boolean", default: false },
  },
});
// Without --url: the local dev server (npm run dev); say so, so a move is never aimed at the wrong place unawares.
const DEFAULT_URL = "http://127.0.0.1:8787";
if (!options.url)
  console.log(`[shard:move] no --url given: using the local dev server at ${DEFAULT_URL} (pass --url https://your-api-host to move a workspace elsewhere)`);
options.url ??= DEFAULT_URL;
const workspaceId = Number(options.workspace);
const to = options.to;
const settleMs = Number(options["settle-ms"]);
const token =
  process.env.OPERATOR_TOKEN ?? (existsSync(".dev.vars") ? /^OPERATOR_TOKEN=(.+)$/m.exec(readFileSync(".dev.vars", "utf8"))?.[1]?.trim() : undefined);
// Isolates keep a verified token for 5 s: waiting less would let one still write to the old shard.
const MIN_SETTLE_MS = 5_500;
if (!Number.isSafeInteger(workspaceId) || workspaceId <= 0 || !to || !token || !(settleMs >= MIN_SETTLE_MS)) {
  console.error(
    "usage: OPERATOR_TOKEN=… npm run shard:move -- --workspace <id> --to <shard binding, e.g. SHARD_1> [--url https://api.example.com] [--settle-ms ≥ 5500] [--abort]",
  );
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
      if (attempt >= 5)
        throw new Error(`${path}: could not reach ${options.url} (${error.message}); is the server running there? Pass --url to point at another one`);
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

/** Releases the hold and drops the copy from the target (before a switch only). */
async function abort() {
  let removed = 0;
  for (let done = false; !done; ) {
    const page = await step("abort");
    removed += page.deleted;
    done = page.done;
  }
  log(`aborted: the workspace takes writes on its shard again; ${removed} copied rows dropped from ${to}`);
}

async function main() {
  if (options.abort) return abort();
  const plan = await step("");
  if (plan.moving) throw new Error(`workspace ${workspaceId} is already held by another move; finish it, or run with --abort`);
  log(`workspace ${workspaceId}: ${plan.from} → ${plan.to}, ${plan.tables.length} tables`);
  // Changes are counted from the worker's clock, with a minute to spare.
  const began = plan.now - 60_000;
  log(`copy: ${await copyAll(plan.tables)} rows`);

  let held;
  let heldAt;
  let switched = false;
  let stop = false;
  // Ctrl-C before the switch aborts the move (at the next step) instead of leaving the workspace held.
  const interrupted = () => {
    stop = true;
    process.exitCode = 1;
  };
  process.once("SIGINT", interrupted);
  try {
    held = await step("hold");
    heldAt = Date.now();
    log(`hold: writes refused until ${new Date(held.expires_at).toISOString()} at the latest; waiting ${settleMs} ms until every isolate has seen it`);
    await sleep(settleMs);
    // Catch up, then switch; a table that still differs (a late write, a sweep) is copied whole and checked again.
    let stale = null;
    for (let round = 1; !switched; round++) {
      let deleted = 0;
      for (const table of [...plan.tables].reverse()) deleted += (await step("prune", { table })).deleted;
      const copied = await copyAll(stale ?? plan.tables, stale ? undefined : began);
      log(`catch-up ${round}: ${deleted} rows deleted, ${copied} rows copied${stale ? ` (${stale.join(", ")} whole)` : ""}`);
      if (stop) throw new Error("interrupted");
      try {
        await step("switch", { held_since: held.held_since });
        switched = true;
      } catch (error) {
        const differing = /differs from the source in ([\w, ]+);/.exec(error.message)?.[1];
        if (!differing || round >= 3) throw error;
        stale = differing.split(", ");
      }
    }
  } catch (error) {
    log(`aborting: ${error.message}`);
    await abort();
    throw error;
  } finally {
    process.removeListener("SIGINT", interrupted);
  }
  log(`switch: workspace ${workspaceId} is on ${plan.to}; its writes were refused for ${((Date.now() - heldAt) / 1000).toFixed(1)} s`);

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
