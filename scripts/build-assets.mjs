// Copies third-party browser files the worker serves as Workers static assets (public/vendor/, git-ignored):
// Scalar's standalone API reference (MIT); and writes the analytics tracker (public/api/v1/analytics/script.js,
// git-ignored) from src/packages/analytics/script.ts, so Cloudflare serves it before the worker runs — no
// rate limit, long cache, ETag. Runs on npm install (prepare), and before dev, tests and deploys.
import { copyFileSync, mkdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const files = [["node_modules/@scalar/api-reference/dist/browser/standalone.js", "public/vendor/scalar/standalone.js"]];
for (const [from, to] of files) {
  const source = join(root, from);
  const target = join(root, to);
  mkdirSync(dirname(target), { recursive: true });
  let fresh = false;
  try {
    fresh = statSync(target).mtimeMs >= statSync(source).mtimeMs;
  } catch {}
  if (!fresh) copyFileSync(source, target);
}

// The tracker: the same bytes the worker's own route serves (src/packages/analytics/script.ts).
const { build } = await import("esbuild");
const bundled = await build({ entryPoints: [join(root, "src/packages/analytics/script.ts")], bundle: true, format: "esm", write: false, logLevel: "silent" });
const { TRACKER_SCRIPT } = await import(`data:text/javascript;base64,${Buffer.from(bundled.outputFiles[0].text).toString("base64")}`);
const tracker = join(root, "public/api/v1/analytics/script.js");
mkdirSync(dirname(tracker), { recursive: true });
let current = "";
try {
  current = readFileSync(tracker, "utf8");
} catch {}
if (current !== TRACKER_SCRIPT) writeFileSync(tracker, TRACKER_SCRIPT);
