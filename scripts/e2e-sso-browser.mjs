// End to end in headless Chromium: the demo dashboard mounts the demo pro app with /api/v1/sso/embed.js,
// the app verifies its token through its backend and shows the user, and the embed refreshes the token
// and hands it over with postMessage. Needs Debian's chromium (.ci/run installs it); skips without it.
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { localSecrets, migrateLocal, startLocalServer } from "./local-server.mjs";

const CHROMIUM = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
if (!existsSync(CHROMIUM)) {
  console.log(`e2e sso: SKIPPED — no Chromium at ${CHROMIUM} (install Debian's chromium package to run it)`);
  console.log("0 passed, 0 failed, 1 skipped");
  process.exit(0);
}
const { chromium } = await import("playwright-core");

const persistTo = mkdtempSync(join(tmpdir(), "bp-sso-"));
const port = 8791;
let server;
let browser;
let failed = false;
try {
  migrateLocal({ persistTo });
  server = await startLocalServer({ port, persistTo, quiet: true, vars: { ALLOW_INSECURE_WEBHOOK_URLS: "true", ...localSecrets() } });
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
  const owner = { workspace_name: "SSO E2E", name: "Grace Hopper", email: `sso-${Date.now()}@example.com`, password: "sso-password-123" };
  const session = (await api("POST", "/auth/signup", undefined, owner)).data.token;
  await api("PUT", "/sso/apps/hrm-pro", session, { app_url: `${server.url}/demo/pro-app`, enabled: true });
  await api("POST", "/sso/apps/hrm-pro/secret", session);

  browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync"],
  });
  const page = await browser.newPage();
  // lead=56: refresh 4 s after each 60 s token is issued, so the run sees refreshes quickly.
  await page.goto(`${server.url}/demo/dashboard#session=${session}&app=hrm-pro&lead=56`);
  await page.waitForFunction(() => Number(document.body.dataset.refreshes ?? 0) >= 2, undefined, { timeout: 30_000 });
  const app = page.frameLocator("iframe");
  await app.locator("body[data-verified='3']").waitFor({ timeout: 10_000 });
  const user = await app.locator("#user").textContent();
  if (!user?.includes(owner.name) || !user.includes(owner.email)) throw new Error(`the app shows ${user}`);
  if (process.env.SSO_SCREENSHOT) await page.screenshot({ path: process.env.SSO_SCREENSHOT });
  console.log(`e2e sso: the embedded app verified 3 tokens (2 refreshes via postMessage) and shows "${user}"`);
} catch (error) {
  failed = true;
  console.error(`e2e sso failed: ${error.stack ?? error}`);
} finally {
  await browser?.close();
  server?.stop();
  rmSync(persistTo, { recursive: true, force: true });
}
console.log(failed ? "0 passed, 1 failed" : "1 passed, 0 failed");
process.exit(failed ? 1 : 0);
