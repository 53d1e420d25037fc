// Starts the worker locally in workerd (wrangler dev, local D1/DO/Queues) and waits until it answers.
import { spawn, spawnSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { existsSync, readFileSync, writeFileSync } from "node:fs";

export const OFFLINE_ENV = {
  WRANGLER_SEND_METRICS: "false",
  CLOUDFLARE_CF_FETCH_ENABLED: "false",
  WRANGLER_NO_SKILLS_UPDATE_PROMPTS: "true",
};

const wranglerEnv = (extra = {}) => ({ ...process.env, ...OFFLINE_ENV, ...extra });

/** Fresh secrets for a local run (the worker has no built-in keys; production sets them with wrangler secret put). */
export function localSecrets() {
  return {
    CURSOR_SECRET: randomBytes(32).toString("base64url"),
    SIGNING_SECRETS_KEY: `local1:${randomBytes(32).toString("base64")}`,
    // The operator's token for /ops (npm run shard:move reads it from .dev.vars).
    OPERATOR_TOKEN: randomBytes(32).toString("base64url"),
  };
}

/**
 * `.dev.vars` (read by wrangler dev, git-ignored) with this machine's own development secrets, written
 * once so that secrets sealed in the local database stay readable across restarts.
 */
export function ensureDevVars(path = ".dev.vars") {
  const present = existsSync(path) ? readFileSync(path, "utf8") : "";
  const missing = Object.entries(localSecrets()).filter(([name]) => !new RegExp(`^${name}=`, "m").test(present));
  if (missing.length > 0) {
    writeFileSync(path, `${present}${present && !present.endsWith("\n") ? "\n" : ""}${missing.map(([name, value]) => `${name}=${value}`).join("\n")}\n`);
  }
}

/** Every D1 binding with its own migrations (the same files the tests apply). */
export const DATABASES = ["DB", "SHARD_1", "ANALYTICS_DB"];

/** Applies the D1 migrations to the local databases. */
export function migrateLocal({ persistTo } = {}) {
  for (const binding of DATABASES) {
    const args = ["wrangler", "d1", "migrations", "apply", binding, "--local", ...(persistTo ? ["--persist-to", persistTo] : [])];
    const result = spawnSync("npx", args, { stdio: "inherit", env: wranglerEnv({ CI: "true" }) });
    if (result.status !== 0) throw new Error(`applying the local D1 migrations of ${binding} failed`);
  }
}

/**
 * `wrangler dev` on host:port with the given vars. Resolves to { url, stop } once /api/v1/health answers.
 */
export async function startLocalServer({ port = 8787, vars = {}, persistTo, quiet = false, extraArgs = [] } = {}) {
  const args = [
    "wrangler",
    "dev",
    "--local",
    "--ip",
    "127.0.0.1",
    "--port",
    String(port),
    "--show-interactive-dev-session=false",
    ...(persistTo ? ["--persist-to", persistTo] : []),
    ...Object.entries(vars).flatMap(([name, value]) => ["--var", `${name}:${value}`]),
    ...extraArgs,
  ];
  const child = spawn("npx", args, { stdio: quiet ? ["ignore", "ignore", "inherit"] : "inherit", env: wranglerEnv(), detached: true });
  const url = `http://127.0.0.1:${port}`;
  const stop = (signal = "SIGTERM") => {
    try {
      process.kill(-child.pid, signal);
    } catch {}
  };
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`wrangler dev exited with ${child.exitCode}`);
    try {
      const res = await fetch(`${url}/api/v1/health`);
      if (res.ok) break;
    } catch {}
    if (Date.now() > deadline) {
      stop();
      throw new Error("wrangler dev did not become ready within 60 s");
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  return { url, stop, child };
}
