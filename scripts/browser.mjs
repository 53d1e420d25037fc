// Headless Chromium for the end-to-end checks: Debian's chromium driven by playwright-core (a browser
// download cannot work here). Pages are kept offline: any request to a host other than this machine is
// aborted and recorded, so a check can assert that a page reached nowhere else.
import { existsSync } from "node:fs";

export const CHROMIUM = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";

/** Exits the script as skipped when there is no Chromium (outside CI, which installs it). */
export function requireChromium(name) {
  if (existsSync(CHROMIUM)) return;
  console.log(`${name}: SKIPPED — no Chromium at ${CHROMIUM} (install Debian's chromium package to run it)`);
  console.log("0 passed, 0 failed, 1 skipped");
  process.exit(0);
}

export async function launch() {
  const { chromium } = await import("playwright-core");
  return chromium.launch({
    executablePath: CHROMIUM,
    args: [
      "--no-sandbox",
      "--disable-gpu",
      "--disable-quic",
      "--no-first-run",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
    ],
  });
}

/** A page whose requests may only reach loopback; `outside` lists what it tried to reach elsewhere, `problems` its console errors. */
export async function offlinePage(browser, options = {}) {
  const context = await browser.newContext({ viewport: { width: 1280, height: 860 }, ...options });
  const outside = [];
  const problems = [];
  await context.route("**/*", (route) => {
    const { hostname, protocol } = new URL(route.request().url());
    if (protocol === "data:" || protocol === "blob:" || hostname === "127.0.0.1" || hostname === "localhost") return route.continue();
    outside.push(route.request().url());
    return route.abort();
  });
  const page = await context.newPage();
  page.on("console", (message) => {
    if (message.type() === "error") problems.push(message.text());
  });
  page.on("pageerror", (error) => problems.push(String(error)));
  return { page, context, outside, problems };
}
