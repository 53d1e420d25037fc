// Starts the worker locally in workerd (wrangler dev, local D1/DO/Queues) and waits until it answers.
import { spawn, spawnSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { appendFileSync, existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { dirname } from "node:path";

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

/**
 * Applies the D1 migrations to the local databases. Wrangler prints a table per migration; with `log`
 * (the default for a temporary database of the end-to-end scripts) that output goes to the file instead.
 */
export function migrateLocal({ persistTo, log = persistTo ? `${persistTo}/migrations.log` : undefined } = {}) {
  if (log) {
    mkdirSync(dirname(log), { recursive: true });
    writeFileSync(log, `migrations applied ${new Date().toISOString()}\n`);
  }
  for (const binding of DATABASES) {
    const args = ["wrangler", "d1", "migrations", "apply", binding, "--local", ...(persistTo ? ["--persist-to", persistTo] : [])];
    const result = spawnSync("npx", args, { stdio: log ? ["ignore", "pipe", "pipe"] : "inherit", env: wranglerEnv({ CI: "true" }), encoding: "utf8" });
    if (log) appendFileSync(log, `\n== ${binding}\n${result.stdout ?? ""}${result.stderr ?? ""}`);
    if (result.status !== 0) {
      if (log) console.error(`${result.stdout ?? ""}${result.stderr ?? ""}`);
      throw new Error(`applying the local D1 migrations of ${binding} failed${log ? ` (the whole output is in ${log})` : ""}`);
    }
  }
}

/** A TCP port nothing listens on right now, chosen by the system. */
export async function freePort() {
  const server = createServer();
  await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address();
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/**
 * `wrangler dev` on 127.0.0.1 with the given vars, on `port` or (by default) a free one. Resolves to
 * { url, stop } once /api/v1/health answers *from this server*: it is started with a random INSTANCE_ID,
 * which the worker echoes in X-Instance-Id, so a stray server already on the port is never mistaken for it.
 */
export async function startLocalServer({ port, vars = {}, persistTo, quiet = false, extraArgs = [] } = {}) {
  port ??= await freePort();
  const instance = randomBytes(12).toString("hex");
  vars = { ...vars, INSTANCE_ID: instance };
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
      await res.text();
      if (res.ok && res.headers.get("x-instance-id") === instance) break;
      if (res.ok) throw new Error(`another server answers on ${url}; stop it or pick another port`);
    } catch (error) {
      if (String(error?.message).startsWith("another server")) {
        stop();
        throw error;
      }
    }
    if (Date.now() > deadline) {
      stop();
      throw new Error("wrangler dev did not become ready within 60 s");
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  return { url, stop, child };
}
