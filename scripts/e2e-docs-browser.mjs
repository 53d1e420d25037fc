// End to end in headless Chromium: /api/v1/docs renders the API reference (Scalar, served as a static
// asset) from /api/v1/openapi.json with navigation and operations, under its Content-Security-Policy,
// without reaching any host but this one. Saves a screenshot (DOCS_SCREENSHOT, default dist/screenshots).
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { launch, offlinePage, requireChromium } from "./browser.mjs";
import { localSecrets, migrateLocal, startLocalServer } from "./local-server.mjs";

requireChromium("e2e docs");
const persistTo = mkdtempSync(join(tmpdir(), "bp-docs-"));
const screenshot = process.env.DOCS_SCREENSHOT ?? "dist/screenshots/docs.png";
let server;
let browser;
let failed = false;
try {
  migrateLocal({ persistTo });
  server = await startLocalServer({ persistTo, quiet: true, vars: { ALLOW_INSECURE_WEBHOOK_URLS: "true", ...localSecrets() } });
  // The reference's assets are static, publicly cached and revalidated by ETag.
  const asset = await fetch(`${server.url}/vendor/scalar/standalone.js`);
  await asset.arrayBuffer();
  const assetTag = asset.headers.get("etag");
  if (!/^public, max-age=\d{4,}/.test(asset.headers.get("cache-control") ?? "") || !assetTag) {
    throw new Error(`the reference's script lacks its cache headers: ${asset.headers.get("cache-control")} / ${assetTag}`);
  }
  const revalidated = await fetch(`${server.url}/vendor/scalar/standalone.js`, { headers: { "if-none-match": assetTag } });
  if (revalidated.status !== 304) throw new Error(`If-None-Match on the reference's script answered ${revalidated.status}, not 304`);
  browser = await launch();
  const { page, outside, problems } = await offlinePage(browser);
  const response = await page.goto(`${server.url}/api/v1/docs`);
  const csp = response.headers()["content-security-policy"] ?? "";
  if (!csp.includes("frame-ancestors 'none'") || csp.includes("unsafe-eval")) throw new Error(`unexpected CSP: ${csp}`);
  // The document renders with its navigation; opening a tag shows its operations and their schemas.
  await page.getByRole("heading", { name: "Business Platform API" }).waitFor({ timeout: 30_000 });
  for (const tag of ["Contacts", "Invoices", "Webhooks", "Single sign-on"]) await page.getByText(tag, { exact: true }).first().waitFor({ timeout: 10_000 });
  await page.getByText("Invoices", { exact: true }).first().click();
  await page.getByText("E-mail an invoice", { exact: false }).first().waitFor({ timeout: 10_000 });
  await page.getByText("E-mail an invoice", { exact: false }).first().click();
  await page.waitForTimeout(1000);
  mkdirSync(join(screenshot, ".."), { recursive: true });
  await page.screenshot({ path: screenshot });
  if (outside.length > 0) throw new Error(`the page tried to reach other hosts: ${[...new Set(outside)].slice(0, 5).join(", ")}`);
  const violations = problems.filter((text) => /Content Security Policy|Refused to/i.test(text));
  if (violations.length > 0) throw new Error(`CSP violations: ${violations.slice(0, 3).join(" | ")}`);
  console.log(`e2e docs: the reference rendered offline from /api/v1/openapi.json (screenshot ${screenshot})`);
} catch (error) {
  failed = true;
  console.error(`e2e docs failed: ${error.stack ?? error}`);
} finally {
  await browser?.close();
  server?.stop();
  rmSync(persistTo, { recursive: true, force: true });
}
console.log(failed ? "0 passed, 1 failed" : "1 passed, 0 failed");
process.exit(failed ? 1 : 0);
